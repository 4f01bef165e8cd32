C     Gaussian elimination with partial pivoting (LINPACK DGEFA) in
C     Fortran D, columns distributed cyclically (seed 000, Figure 4a).
C     Each step K broadcasts the pivot and the column of reduction
C     factors from the owner of column K; the other processors wait.
C     Markers: the K loop waits for broadcasts (seed 000 §4: Fortran D
C     cannot overlap them), the costs of the loops; dgefa-p8.f has the
C     loop report on 8 processors.
C@hint("^2.69 G$", tooltip="\b2694064363\b")
C@noestimate
      PROGRAM DGEFA
      PARAMETER (NMAX = 1024, NPROC = 16)
      DOUBLE PRECISION A(NMAX,NMAX), T
      INTEGER IPVT(NMAX)
      DECOMPOSITION D(NMAX,NMAX)
      ALIGN A WITH D
      DISTRIBUTE D(:,CYCLIC)
C@diag(non-overlapped-broadcast, "K loop waits .* broadcasts values of A", warning)
C@estimate(current "D(:,CYCLIC)")
C@estimate(report "^Loop at line \d+ on 16 processors, D\(:,CYCLIC\): ")
C@estimate(report "broadcast of A: .*\(A\(I,K\) is held by one processor and needed by all\)")
C@estimate(report "broadcast of A: .*\(L is computed from A by its owner and sent to all\)")
C@hint("^2.69 G$", tooltip="\b2694064363\b")
C@action("^Estimate this loop$")
      DO 60 K = 1, NMAX-1
C        find the pivot row L of column K
         L = K
C@hint("^-9·K \+ 9218 for K ≤ 1023$")
C@nodiag(non-overlapped-broadcast)
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
C@hint("^15·K² - 30740·K \+ 15.7×10⁶ for K ≤ 1023$", tooltip="15\*K\^2 - 30740\*K \+ 15749122   for K <= 1023")
            DO 40 J = K+1, NMAX
               T = A(L,J)
               A(L,J) = A(K,J)
               A(K,J) = T
C@hint("^-15·K \+ 15362 for K ≤ 1023$")
               DO 30 I = K+1, NMAX
                  A(I,J) = A(I,J) + T*A(I,K)
   30          CONTINUE
   40       CONTINUE
         ENDIF
   60 CONTINUE
      END
