C     SUB2 of seed 004 with one more statement after the loops, and inlay
C     labels cut to 24 characters (the full polynomial stays in the
C     tooltip).
C@maxlength(24)
C@allhints
C@hint("^57/2·M² \+ 195/2·M \+ 2$") X = 1 adds one
      SUBROUTINE SUB2(M)
      INTEGER M
C@hint("^57/2·M² \+ 195/2·M \+ 1$")
      DO 10 I = 1, M
         II = I + 1
C@hint("^9·I² - 12·I·M \+ 3·M² - …$", tooltip="9\*I\^2 - 12\*I\.M \+ 3\*M\^2 - 84\*I \+ 72\*M \+ 135")
         DO 20 J = II, M + 2
            JJ = I + J - 2
C@hint("^-6·I - 6·J \+ 6·M \+ 70$")
            DO 30 K = JJ + 2, M + 10
               T = T + 1.0
               U = U + 1.0
   30       CONTINUE
   20    CONTINUE
   10 CONTINUE
      X = 1
      RETURN
      END
