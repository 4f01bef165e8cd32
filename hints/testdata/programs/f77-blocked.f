C     Blocked matrix multiply with MIN bounds, plain FORTRAN 77, the
C     sizes as PARAMETERs.
C
C     Expert's view: the tiles cover the 800 x 800 x 800 iteration space
C     exactly once (800 = 12 x 64 + 32), so the inner statement (cost
C     18) runs 800³ = 5.12·10⁸ times: the count is above 9.2·10⁹ and is
C     a number, since every bound is a PARAMETER or a loop index with
C     known range. MIN(JJ+NB-1, N) is a bound, not an unknown: summing
C     it exactly gives the number (the exact-counts issue); it must not
C     become UNKNOWN_RANGE. The initialization loop costs exactly
C     12·N² = 7680000 (three 2-D stores of a constant at 4 each; bounds
C     that are PARAMETERs cost 0), and its tooltip must not call the
C     PARAMETER N a guess.
      PROGRAM BLKMM
      PARAMETER (N = 800, NB = 64)
      REAL A(N,N), B(N,N), C(N,N)
C     N is a PARAMETER: a known value, not a guess
C@hint("^7.68 M$", tooltip="\b7680000\b[^$]*variables: \d+ symbolic, 0 guessed")
      DO 1 J = 1, N
         DO 1 I = 1, N
            A(I,J) = 1.0
            B(I,J) = 2.0
            C(I,J) = 0.0
    1 CONTINUE
C@hint("^[0-9.]+ G$", tooltip="\b[0-9]{10,}\b")
C@estimate(noreport "UNKNOWN_RANGE|one iteration")
      DO 60 JJ = 1, N, NB
         DO 50 KK = 1, N, NB
            DO 40 II = 1, N, NB
C     The tile's count is a number for the full tiles, with its condition
C     (II, JJ, KK <= 737): the last tiles are smaller (a second reading:
C     a plain number cannot hold for every tile).
C@hint("^[0-9.]+( [kMGT])? for II ≤ 737, JJ ≤ 737, KK ≤ 737$")
               DO 30 J = JJ, MIN(JJ+NB-1, N)
                  DO 20 K = KK, MIN(KK+NB-1, N)
                     DO 10 I = II, MIN(II+NB-1, N)
                        C(I,J) = C(I,J) + A(I,K)*B(K,J)
   10                CONTINUE
   20             CONTINUE
   30          CONTINUE
   40       CONTINUE
   50    CONTINUE
   60 CONTINUE
      PRINT *, C(1,1)
      END
