C     A PARAMETER's name in its PARAMETER statement: Definition from a use
C     goes there, but a hover there shows nothing and References from a
C     use leave it out.
      PROGRAM P
C@loc(n, "N")
C@hovername("N", "100")
      PARAMETER (N = 100)
C@loc(nx, "N")
      REAL X(N)
C@def("N", n)
C@refs("N", n, nx, nloop)
C@loc(nloop, "N")
      DO 10 I = 1, N
         X(I) = 0.0
   10 CONTINUE
      END
