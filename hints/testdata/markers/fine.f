C     An array nobody uses (unused-array, with its memory per processor),
C     and a loop of 4 elements per processor that waits for a shift
C     (fine-grain-loop, loop-distribution).
      PROGRAM FINE
      PARAMETER (N = 64)
C@diag(unused-array, "^array SPARE is never read or written; it takes 3\.81 MiB per processor$", information)
      REAL A(N), B(N), SPARE(1000,1000)
      DECOMPOSITION D(N)
      ALIGN A, B WITH D
      DISTRIBUTE D(BLOCK)
C@diag(fine-grain-loop, "work each processor does in this loop \(.*\) is less than the communication it needs \(.*\) on 16 processors", warning)
C@diag(loop-distribution, "wait for 1 shift\(s\)", information)
C@estimate(report "open-shift of B: 1 × 4 bytes, .*\(B\(I-1\) reads 1 from the neighbour along dimension 1\)")
      DO 10 I = 2, N
         A(I) = B(I-1)
   10 CONTINUE
      END
