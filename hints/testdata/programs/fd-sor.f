C     Gauss-Seidel (SOR) sweeps in place for the Poisson equation,
C     Fortran D. The columns of U are distributed in blocks.
C
C     Expert's view: the sweep updates U in place, so U(I,J-1) is the
C     new value from this sweep: processor p needs the last column of
C     processor p-1 after p-1 computed it. Under D(:,BLOCK) the J loop
C     carries the dependence across processors: the Fortran D compiler
C     pipelines it (coarse-grain pipelining, seed 000: blocks of the
C     I loop sent as they are finished), the other read U(I,J+1) is an
C     old value and is one vectorized shift per sweep. Under D(BLOCK,:)
C     the I loop carries the dependence: one message per column, a
C     fine-grain pipeline. F is aligned with U: no missing ALIGN. With
C     the compiler's block size of 8 the sweep sends ceil(1022/8) = 128
C     messages of 8 reals to the right neighbour, and its time includes
C     the pipeline's fill: the pipeline-granularity model's ~200 µs per
C     sweep, not the 50 µs of a fully parallel loop plus one shift.
      PROGRAM SOR
      PARAMETER (N = 1024, NSWEEP = 100)
      REAL U(N,N), F(N,N), OMEGA
      DECOMPOSITION D(N,N)
      ALIGN U, F WITH D
      DISTRIBUTE D(:,BLOCK)
      OMEGA = 1.9
      DO 5 J = 1, N
         DO 5 I = 1, N
            U(I,J) = 0.0
            F(I,J) = 1.0
    5 CONTINUE
C@estimate(current "D(:,BLOCK)")
C@estimate(report "shift of U")
C@nodiag(missing-align)
      DO 30 ISWEEP = 1, NSWEEP
C@nodiag(missing-align)
C@estimate(report "shift of U: 128 × 32 bytes")
C@estimate(noreport "pipeline: U\(I,J\+1\)")
C@estimate(report "D\(:,BLOCK\): [1-9][0-9]{2} µs")
C@nodiag(loop-distribution)
         DO 20 J = 2, N-1
C@diag(pipeline-granularity, "blocks of B = 8", information)
            DO 10 I = 2, N-1
               U(I,J) = (1.0-OMEGA)*U(I,J) + OMEGA*0.25*
     &            (U(I-1,J) + U(I+1,J) + U(I,J-1) + U(I,J+1) - F(I,J))
   10       CONTINUE
   20    CONTINUE
   30 CONTINUE
      PRINT *, U(N/2,N/2)
      END
