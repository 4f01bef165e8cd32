C     DGEFA of markers/dgefa.f: the triangular iteration space leaves the
C     first processors idle under D(:,BLOCK); D(:,CYCLIC) balances the
C     work (the textbook reason for CYCLIC; issue 14). pfls prices both the
C     same.
C@ignore(non-overlapped-broadcast)
      PROGRAM DGEFA
      PARAMETER (NMAX = 1024)
      DOUBLE PRECISION A(NMAX,NMAX), T
      INTEGER IPVT(NMAX)
      DECOMPOSITION D(NMAX,NMAX)
      ALIGN A WITH D
      DISTRIBUTE D(:,CYCLIC)
C@estimate(faster "D(:,CYCLIC)")
C@action("^Distribute D\(:,BLOCK\): .*\(\+\d+% vs D\(:,CYCLIC\)\)")
      DO 60 K = 1, NMAX-1
         L = K
         DO 10 I = K+1, NMAX
            IF (ABS(A(I,K)) .GT. ABS(A(L,K))) L = I
   10    CONTINUE
         IPVT(K) = L
         IF (A(L,K) .NE. 0.0D0) THEN
            T = A(L,K)
            A(L,K) = A(K,K)
            A(K,K) = T
            DO 20 I = K+1, NMAX
               A(I,K) = -A(I,K) / A(K,K)
   20       CONTINUE
            DO 40 J = K+1, NMAX
               T = A(L,J)
               A(L,J) = A(K,J)
               A(K,J) = T
               DO 30 I = K+1, NMAX
                  A(I,J) = A(I,J) + T*A(I,K)
   30          CONTINUE
   40       CONTINUE
         ENDIF
   60 CONTINUE
      END
