C     Complexity example from the PIPS report (seed 004): three nested
C     loops whose bounds depend on outer indices and on an intermediate
C     variable JJ that must be eliminated in favour of I, J and M.
C     Markers: the cost of each loop and of the routine as inlay hints
C     (seed 004 gives 57/2 M^2 + 195/2 M + 1, which holds for M <= 9; the
C     exact count shown is the piece for large M), the statement hovers.
C@allhints
C@hint("^1/2·M³ \+ 75/4·M² \+ 1… for M ≥ 10, M even$", tooltip="Cost of subroutine SUB2")
C@nohover
      SUBROUTINE SUB2(M)
C@nohint
C@nohover
      INTEGER M
C@hint("^1/2·M³ \+ 75/4·M² \+ 1… for M ≥ 10, M even$")
C@noaction("^Distribute")
C@estimate(current "replicated")
C@estimate(report "communication 0 ns")
      DO 10 I = 1, M
         II = I + 1 !@hover("`3`")
C@hint("^9·I² - 12·I·M \+ 3·… for I ≤ 8, M \+ 1 ≥ I$", tooltip="9\*I\^2 - 12\*I\.M \+ 3\*M\^2 - 84\*I \+ 72\*M \+ 135")
         DO 20 J = II, M + 2
C@hover("`5`")
            JJ = I + J - 2
C@hint("^-6·I - 6·J \+ 6·M \+ 70 for M \+ 10 ≥ I \+ J$")
C@hover("\(DO\)")
C@hover("`-6\*I - 6\*J \+ 6\*M \+ 70`")
C@action("^Estimate this loop$", preferred=false)
            DO 30 K = JJ + 2, M + 10
               T = T + 1.0
               U = U + 1.0
   30       CONTINUE
   20    CONTINUE
   10 CONTINUE
      RETURN !@nohint
      END
