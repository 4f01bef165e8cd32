C     An IF / ELSE IF / ELSE chain weighs its arms 1/2, 1/4 and 1/4, so
C     the shift it needs in every arm is counted once per iteration.
      PROGRAM Z
      PARAMETER (N = 64)
      REAL A(N), B(N)
      DECOMPOSITION D(N)
      ALIGN A, B WITH D
      DISTRIBUTE D(BLOCK)
C@estimate(report "open-shift of B: 1/2 × 4 bytes")
C@estimate(report "open-shift of B: 1/4 × 4 bytes.*\n.*open-shift of B: 1/4 × 4 bytes")
C@diag(fine-grain-loop)
C: pfls counts 3 shifts here where there is one; see markers-known-wrong/ifchain.f.
C@diag(loop-distribution, "wait for \d shift")
      DO 10 I = 2, N
         IF (A(I) .GT. 0.0) THEN
            A(I) = B(I-1)
         ELSE IF (A(I) .LT. 0.0) THEN
            A(I) = B(I-1)
         ELSE
            A(I) = B(I-1)
         END IF
   10 CONTINUE
      END
