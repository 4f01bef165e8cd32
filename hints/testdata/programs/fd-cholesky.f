C     Right-looking column Cholesky factorization (lower triangle),
C     Fortran D, columns distributed cyclically.
C
C     Expert's view: at step K only the trailing lower triangle is
C     updated. Under D(:,BLOCK) the busiest processor at step K holds
C     N/P full-length columns to the right of K, about (N/P)(N-K)
C     updates, so the parallel time is about N³/(2P) against the
C     balanced N³/(6P): BLOCK is 2-3.5x slower than CYCLIC (the
C     textbook reason for cyclic columns, Fortran D report §4). Column K
C     is scaled by its owner and broadcast to all: one broadcast per
C     step, and the other processors wait for it (the non-overlapped
C     broadcast of seed 000's DGEFA, correctly reported).
      PROGRAM CHOL
      PARAMETER (N = 1024)
      DOUBLE PRECISION A(N,N)
      DECOMPOSITION D(N,N)
      ALIGN A WITH D
      DISTRIBUTE D(:,CYCLIC)
      DO 5 J = 1, N
         DO 5 I = 1, N
            A(I,J) = 1.0D0
    5 CONTINUE
      DO 6 I = 1, N
         A(I,I) = DBLE(N)
    6 CONTINUE
C@estimate(current "D(:,CYCLIC)")
C@estimate(report "broadcast of A")
C@estimate(report "^Loop at line \d+ on 16 processors, D\(:,CYCLIC\): [0-9.]+ m?s ")
C@todo estimate(beats "D(:,CYCLIC)", over="D(:,BLOCK)", by="2-3.5", why="1.38×: the computation is 1.84× (each step's work is weighted, not each column's), and the column broadcasts, the same in both, dilute it")
C@todo nodiag(fine-grain-loop, why="A(I,K) and A(J,K) read one column but are priced as two broadcasts, each of the first step's size")
C@diag(non-overlapped-broadcast, "broadcasts values of A")
      DO 40 K = 1, N
         A(K,K) = SQRT(A(K,K))
         DO 10 I = K+1, N
            A(I,K) = A(I,K)/A(K,K)
   10    CONTINUE
         DO 30 J = K+1, N
            DO 20 I = J, N
               A(I,J) = A(I,J) - A(I,K)*A(J,K)
   20       CONTINUE
   30    CONTINUE
   40 CONTINUE
      PRINT *, A(N,N)
      END
