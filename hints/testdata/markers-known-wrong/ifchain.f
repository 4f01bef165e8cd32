C     markers/ifchain.f: the same B(I-1) read in the three arms of an IF
C     chain is one shift, but loop-distribution counts three.
C@ignore(fine-grain-loop)
      PROGRAM Z
      PARAMETER (N = 64)
      REAL A(N), B(N)
      DECOMPOSITION D(N)
      ALIGN A, B WITH D
      DISTRIBUTE D(BLOCK)
C@diag(loop-distribution, "wait for 1 shift\(s\)")
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
