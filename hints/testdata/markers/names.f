C     The editor features on names, in Fortran D: definitions and
C     references of variables, PARAMETERs, a COMMON block, a decomposition
C     and a procedure; hovers; rename; completion; signature help; the
C     outline.
C@symbol(program, "^SOLVE$")
      PROGRAM SOLVE
C@loc(n, "N")
      PARAMETER (N = 100)
C@loc(x, "X")
C@loc(y, "Y")
C@loc(nx, "N")
C@loc(ny, "N#2")
      REAL X(N), Y(N)
C@loc(blk, "SHARED")
C@loc(tol, "TOL")
      COMMON /SHARED/ TOL
C@loc(d, "D")
C@loc(nd, "N")
      DECOMPOSITION D(N)
C@def("D", d)
C@def("X", x)
C@refs("D", d, dalign, ddist)
C@loc(dalign, "D")
C@loc(yalign, "Y")
      ALIGN X, Y WITH D
C@loc(ddist, "D")
      DISTRIBUTE D(BLOCK)
C: PARAMETER N is left out of its own references and has no hover; see
C: markers-known-wrong/parameter-refs.f.
C@def("N", n)
C@refs("N", n, nx, ny, nd, nloop, ncall)
C@symbol(loop, "10")
C@loc(nloop, "N")
      DO 10 I = 1, N
C@hovername("X", "REAL")
C@refs("Y", y, yalign, yloop, ysqrt, ycall)
C@loc(yloop, "Y")
         X(I) = Y(I) + TOL
C@signature("SQRT", "^SQRT\(X\)$", active=0)
C@loc(ysqrt, "Y")
         Y(I) = SQRT(X(I))
   10 CONTINUE
C@def("SMOOTH", smooth)
C@loc(ycall, "Y")
C@loc(ncall, "N")
C@signature("SMOOTH", "^SMOOTH\(A, M\)$")
      CALL SMOOTH(Y, N)
C@complete("TO", "^TOL$", kind="variable")
      TOL = 0.5
C@rename("TOL", "EPS", golden="names-rename")
C@rename("X", "Y", error="already a name")
C@rename("SQRT", "ROOT", error="intrinsic")
      X(1) = TOL * SQRT(X(2))
      END
C@symbol(subroutine, "^SMOOTH$")
C@loc(smooth, "SMOOTH")
      SUBROUTINE SMOOTH(A, M)
      INTEGER M
C@def("A", a)
C@loc(a, "A")
      REAL A(M)
C@def("SHARED", blk2)
C@loc(blk2, "SHARED")
      COMMON /SHARED/ TOL
      A(1) = A(2) * TOL
      END
