C     Malformed input: one error per statement, recovery at the next one.
      PROGRAM BAD
      IMPLICIT NONE
      INTEGER I, N
      REAL A(10)
      N = 10
      A(1) = (N +
! ERROR "expected an expression"
      DO 10 I = 1,
! ERROR "expected an expression"
         A(I) = UNKNOWN + 1
! ERROR "UNKNOWN is not declared"
   10 CONTINUE
      X = 1
! ERROR "X is not declared"
      IF (N .GT. 1) THEN
         N = 2
      END DO
! ERROR "END DO without a matching DO"
      END IF
      CALL FOO(
! ERROR "expected an expression"
      A = 'unterminated
! ERROR "unterminated character constant"
      END
