C     A routine that communicates, called in a loop: Rice Fortran 77D does
C     not transform across procedures (beyond-compiler, seed 000 §5).
      PROGRAM DRIVER
      PARAMETER (N = 256)
      REAL X(N)
C@nodiag(beyond-compiler)
C@estimate(report "communication 0 ns")
      DO 10 K = 1, 50
C@diag(beyond-compiler, "^SWEEP communicates \(.* per call\) and is called inside a loop, 50 times: .* of communication; the Rice Fortran 77D compiler profile does not transform across procedures")
C@noestimate
         CALL SWEEP(X, N)
   10 CONTINUE
      END
      SUBROUTINE SWEEP(X, N)
      INTEGER N
      REAL X(N), Y(N)
      DECOMPOSITION D(N)
      ALIGN X, Y WITH D
      DISTRIBUTE D(BLOCK)
C@diag(loop-distribution, "wait for 1 shift\(s\)")
C: the work per processor is symbolic in N (pfls prints it as 0 ns, see
C: markers-known-wrong/driver-work.f), so only the code is expected.
C@diag(fine-grain-loop)
C@estimate(report "open-shift of X: 1 × 4 bytes")
      DO 20 I = 2, N
         Y(I) = X(I-1)
   20 CONTINUE
      END
