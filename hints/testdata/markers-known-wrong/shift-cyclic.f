C     The loop of markers/fine.f: under BLOCK each processor sends one
C     element to its neighbour, under CYCLIC every element it owns (4
C     here); both are one message per processor. pfls prices the circular
C     CYCLIC shift below the open BLOCK shift and prefers CYCLIC.
C@ignore(unused-array, loop-distribution, fine-grain-loop)
      PROGRAM FINE
      PARAMETER (N = 64)
      REAL A(N), B(N)
      DECOMPOSITION D(N)
      ALIGN A, B WITH D
      DISTRIBUTE D(BLOCK)
C@estimate(faster "D(BLOCK)")
      DO 10 I = 2, N
         A(I) = B(I-1)
   10 CONTINUE
      END
