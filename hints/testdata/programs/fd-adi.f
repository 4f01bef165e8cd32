C     ADI (alternating direction implicit) sweeps, Fortran D: a forward
C     elimination along I in every column, then along J in every row.
C
C     Expert's view: with D(:,BLOCK) every column is on one processor, so
C     the I sweep (loop 20) is entirely local: no communication. The J
C     sweep (loop 40) runs its recurrence X(I,J) <- X(I,J-1) across the
C     block boundaries: each processor waits for its left neighbour, a
C     pipeline of P stages (or a transpose between the sweeps, which
C     Fortran D allows with an executable DISTRIBUTE). A, B and X are
C     aligned with D: no missing ALIGN. The pipeline sends 1024/8 = 128
C     blocks of 8 reals per sweep (block size 8, seed 000) and costs its
C     fill: D(BLOCK,:) (local J recurrence) beats D(:,BLOCK) for loop 40
C     by more than the 3% pfls finds. Splitting the boundary iterations
C     (loop-distribution) cannot help a carried recurrence, and pfls's own
C     figure for it is 0% of the loop: no such diagnostic.
      PROGRAM ADI
      PARAMETER (N = 1024, NSTEP = 10)
      REAL X(N,N), A(N,N), B(N,N)
      DECOMPOSITION D(N,N)
      ALIGN X, A, B WITH D
      DISTRIBUTE D(:,BLOCK)
      DO 5 J = 1, N
         DO 5 I = 1, N
            X(I,J) = 1.0
            A(I,J) = 0.5
            B(I,J) = 2.0
    5 CONTINUE
C@nodiag(loop-distribution)
      DO 50 ISTEP = 1, NSTEP
C        sweep along I: local under D(:,BLOCK)
C@estimate(report "^Loop at line \d+ on 16 processors, D\(:,BLOCK\): .*\(communication 0 ns")
C@estimate(beats "D(:,BLOCK)", over="D(BLOCK,:)")
C@nodiag(missing-align)
         DO 20 J = 1, N
            DO 10 I = 2, N
               X(I,J) = X(I,J) - X(I-1,J)*A(I,J)/B(I-1,J)
   10       CONTINUE
   20    CONTINUE
C        sweep along J: crosses the processors under D(:,BLOCK)
C@estimate(report "shift of X")
C@estimate(report "shift of B: 1 × 4096 bytes")
C@estimate(report "shift of X: 128 × 32 bytes")
C@estimate(beats "D(BLOCK,:)", over="D(:,BLOCK)", by="1.2-10")
         DO 40 J = 2, N
C@diag(pipeline-granularity, "blocks of B = 8", information)
            DO 30 I = 1, N
               X(I,J) = X(I,J) - X(I,J-1)*A(I,J)/B(I,J-1)
   30       CONTINUE
   40    CONTINUE
   50 CONTINUE
      PRINT *, X(N,N)
      END
