C     Right-looking column Cholesky factorization (lower triangle),
C     Fortran D, columns distributed cyclically.
C
C     Expert's view: at step K only the trailing lower triangle is
C     updated. Under D(:,BLOCK) the busiest processor at step K holds
C     N/P full-length columns to the right of K, about (N/P)(N-K)
C     updates, so the parallel time is about N³/(2P) against the
C     balanced N³/(6P): BLOCK's computation is 2-3.5x CYCLIC's (the
C     textbook reason for cyclic columns, Fortran D report §4; counted
C     exactly at N = 1024, P = 16 it is 2.6x for the update). Each step
C     waits for column K, so the busiest processor of each step sets its
C     time. The broadcasts are the same under both and are not hidden,
C     so the whole loop is about 1.9x: 1.5-3.5 (a second reading: the
C     first statement of 2-3.5 for the whole loop left the
C     communication out). Column K is scaled by its owner and
C     broadcast to all: one broadcast per step (A(I,K) and A(J,K) read
C     the same column) of its N-K elements, and the other processors
C     wait for it (the non-overlapped broadcast of seed 000's DGEFA,
C     correctly reported).
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
C@estimate(beats "D(:,CYCLIC)", over="D(:,BLOCK)", by="1.5-3.5")
C@nodiag(fine-grain-loop)
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
