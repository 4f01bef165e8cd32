C     A coarse loop: the shifts along J are worth a loop-distribution note
C     but the work per processor is far above the communication: no
C     fine-grain-loop, and the aligned arrays need no ALIGN.
      PROGRAM COARSE
      PARAMETER (N = 4000)
      REAL A(N,N), B(N,N)
      DECOMPOSITION D(N,N)
      ALIGN A, B WITH D
      DISTRIBUTE D(:, BLOCK)
C@diag(loop-distribution, "wait for 2 shift\(s\) from the neighbours", information)
C@nodiag(fine-grain-loop)
C@nodiag(missing-align)
C@estimate(report "open-shift of A: 1 × 16000 bytes, .*\(A\(I,J-1\) reads 1 from the neighbour along dimension 2\)")
C@estimate(report "open-shift of A: 1 × 16000 bytes, .*\(A\(I,J\+1\) reads 1 from the neighbour along dimension 2\)")
      DO 10 J = 2, N - 1
C@nodiag(loop-distribution)
         DO 10 I = 1, N
            B(I,J) = SQRT(A(I,J)) + A(I,J-1) + A(I,J+1)
   10 CONTINUE
      END
