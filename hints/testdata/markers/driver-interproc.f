C     The DRIVER of driver.f under a profile that transforms across
C     procedures: no beyond-compiler.
      PROGRAM DRIVER
C@profile(interprocedural=true, name="Interprocedural Fortran D")
      PARAMETER (N = 256)
      REAL X(N)
      DO 10 K = 1, 50
C@nodiag(beyond-compiler)
         CALL SWEEP(X, N)
   10 CONTINUE
      END
      SUBROUTINE SWEEP(X, N)
      INTEGER N
      REAL X(N), Y(N)
      DECOMPOSITION D(N)
      ALIGN X, Y WITH D
      DISTRIBUTE D(BLOCK)
C@diag(loop-distribution, "Interprocedural Fortran D compiler profile does not split the loop")
C@diag(fine-grain-loop)
      DO 20 I = 2, N
         Y(I) = X(I-1)
   20 CONTINUE
      END
