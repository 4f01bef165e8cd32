C     SUB2 of seed 004 with one more statement after the loops, and inlay
C     labels cut to 24 characters (the full polynomial stays in the
C     tooltip).
C@maxlength(24)
C@allhints
C@hint("^1/2·M³ \+ 75/4·M² \+ 154·…$", tooltip="1/2\*M\^3 \+ 75/4\*M\^2 \+ 154\*M - 82   for M >= 10, M even") X = 1 adds one
      SUBROUTINE SUB2(M)
      INTEGER M
C@hint("^1/2·M³ \+ 75/4·M² \+ 154·…$", tooltip="1/2\*M\^3 \+ 75/4\*M\^2 \+ 154\*M - 83   for M >= 10, M even")
      DO 10 I = 1, M
         II = I + 1
C@hint("^9·I² - 12·I·M \+ 3·M² - …$", tooltip="9\*I\^2 - 12\*I\.M \+ 3\*M\^2 - 84\*I \+ 72\*M \+ 135")
         DO 20 J = II, M + 2
            JJ = I + J - 2
C@hint("^-6·I - 6·J \+ 6·M \+ 70 f…$")
            DO 30 K = JJ + 2, M + 10
               T = T + 1.0
               U = U + 1.0
   30       CONTINUE
   20    CONTINUE
   10 CONTINUE
      X = 1
      RETURN
      END
