C     An empty extent (N = 0) must not divide by zero; the program is
C     nonsense (it writes outside A), so its diagnostics are not checked.
C@ignore(fine-grain-loop, loop-distribution, pipeline-granularity, unvectorized-message)
      PROGRAM Z
      PARAMETER (N = 0)
C@diag(invalid, "array A has extent 0 in dimension 1")
      REAL A(N)
C@diag(invalid, "template D has extent 0 in dimension 1")
      DECOMPOSITION D(N)
      ALIGN A WITH D
      DISTRIBUTE D(BLOCK)
C@estimate(current "D(BLOCK)")
      DO 10 I = 1, 5
         A(I) = A(I-1) + 1.0
   10 CONTINUE
      END
