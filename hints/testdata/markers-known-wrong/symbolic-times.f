C     Times that depend on a symbol are printed as "0 ns" in capability
C     messages: the work of SWEEP's loop grows with N and the messages of
C     RELAX with M. They should be given in terms of the symbol (or for
C     its value at the call, N = 256).
C@ignore(loop-distribution, beyond-compiler)
      PROGRAM DRIVER
      PARAMETER (N = 256)
      REAL X(N)
      DO 10 K = 1, 50
         CALL SWEEP(X, N)
   10 CONTINUE
      END
      SUBROUTINE SWEEP(X, N)
      INTEGER N
      REAL X(N), Y(N)
      DECOMPOSITION D(N)
      ALIGN X, Y WITH D
      DISTRIBUTE D(BLOCK)
C@diag(fine-grain-loop, "does in this loop \([^0]")
      DO 20 I = 2, N
         Y(I) = X(I-1)
   20 CONTINUE
      END
      SUBROUTINE RELAX(X, Y, N, K, M)
      INTEGER N, K, M
      REAL X(N), Y(M)
      DECOMPOSITION D(N)
      ALIGN X WITH D
      DISTRIBUTE D(BLOCK)
      DO 30 I = 1, M
         X(K) = X(K-1) + Y(I)  !@diag(unvectorized-message, "sent \(iSR rather than vSR\): [^0]")
         X(K-1) = 0.5 * X(K)  !@diag(unvectorized-message, "sent \(iSR rather than vSR\): [^0]")
   30 CONTINUE
      END
