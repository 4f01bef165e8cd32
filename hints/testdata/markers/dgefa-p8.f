C     DGEFA of dgefa.f on 8 processors: the loop report says so and
C     still finds the broadcasts of A.
C@procs(8)
      PROGRAM DGEFA
      PARAMETER (NMAX = 1024, NPROC = 16)
      DOUBLE PRECISION A(NMAX,NMAX), T
      INTEGER IPVT(NMAX)
      DECOMPOSITION D(NMAX,NMAX)
      ALIGN A WITH D
      DISTRIBUTE D(:,CYCLIC)
C@diag(non-overlapped-broadcast, "K loop waits .* broadcasts values of A", warning)
C@estimate(report "^Loop at line \d+ on 8 processors, D\(:,CYCLIC\): ")
C@estimate(report "broadcast of A")
      DO 60 K = 1, NMAX-1
C        find the pivot row L of column K
         L = K
         DO 10 I = K+1, NMAX
            IF (ABS(A(I,K)) .GT. ABS(A(L,K))) L = I
   10    CONTINUE
         IPVT(K) = L
         IF (A(L,K) .NE. 0.0D0) THEN
            T = A(L,K)
            A(L,K) = A(K,K)
            A(K,K) = T
C           row reduction factors of column K
            DO 20 I = K+1, NMAX
               A(I,K) = -A(I,K) / A(K,K)
   20       CONTINUE
C           reduce every column to the right with the factors of K
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
