C     Thomas algorithm for M independent tridiagonal systems of order N
C     (one per column), Fortran D.
C
C     Expert's view: each system lies in one column, and D(:,BLOCK)
C     gives whole columns to processors: both the elimination and the
C     back substitution are local, communication zero, perfect balance
C     (M = 4096 columns over 16 processors). D(BLOCK,:) would cut every
C     system into 16 pieces with a recurrence through them: a pipeline
C     of messages, clearly slower. All arrays are aligned with D.
      PROGRAM TRID
      PARAMETER (N = 512, M = 4096)
      REAL A(N,M), B(N,M), C(N,M), R(N,M), X(N,M)
      DECOMPOSITION D(N,M)
      ALIGN A, B, C, R, X WITH D
      DISTRIBUTE D(:,BLOCK)
      DO 5 K = 1, M
         DO 5 I = 1, N
            A(I,K) = -1.0
            B(I,K) = 4.0
            C(I,K) = -1.0
            R(I,K) = 1.0
    5 CONTINUE
C@estimate(current "D(:,BLOCK)")
C@estimate(report "measured|extrapolat")
C@estimate(report "^Loop at line \d+ on 16 processors, D\(:,BLOCK\): .*\(communication 0 ns")
C@estimate(beats "D(:,BLOCK)", over="D(BLOCK,:)", by="1.5-1000")
C@nodiag(missing-align)
      DO 40 K = 1, M
         DO 10 I = 2, N
            B(I,K) = B(I,K) - A(I,K)*C(I-1,K)/B(I-1,K)
            R(I,K) = R(I,K) - A(I,K)*R(I-1,K)/B(I-1,K)
   10    CONTINUE
         X(N,K) = R(N,K)/B(N,K)
         DO 20 I = N-1, 1, -1
            X(I,K) = (R(I,K) - C(I,K)*X(I+1,K))/B(I,K)
   20    CONTINUE
   40 CONTINUE
      PRINT *, X(1,1)
      END
