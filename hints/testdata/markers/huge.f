C     A pipeline over 10^8 x 10^8 elements: the block-size search must
C     finish, and the pipeline is reported once.
      PROGRAM Z
      PARAMETER (N = 100000000)
      REAL A(N,N)
      DECOMPOSITION D(N,N)
      ALIGN A WITH D
      DISTRIBUTE D(BLOCK,:)
C@estimate(report "open-shift-strided of A: 12\.5 M × 32 bytes, .*pipeline: A\(I-1,J\).*pipelined in 12500000 blocks of 8")
      DO 10 I = 2, N
C@diag(pipeline-granularity, "pipelines this loop nest across the distributed dimension of A in blocks of B = 8; the pipeline model .* predicts .* at B = 8 and .* at B_opt = \d+", information)
         DO 10 J = 2, N
            A(I,J) = A(I-1,J) + A(I,J-1)
   10 CONTINUE
      END
