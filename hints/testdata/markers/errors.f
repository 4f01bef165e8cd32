C     Declaration and syntax errors in fixed form: an undeclared function
C     and variable under IMPLICIT NONE, an expression cut short. The
C     analyses go on around them: the loop keeps its hint and estimate.
      PROGRAM ERRS
      IMPLICIT NONE
      INTEGER I, N
      REAL A(10)
      PARAMETER (N = 10)
C@hint("^40$")
C@estimate(current "replicated")
      DO 10 I = 1, N
C@diag(undeclared, "^function B has no type under IMPLICIT NONE$", error)
         A(I) = B(I) + 1.0
   10 CONTINUE
C@diag(undeclared, "^X is not declared \(IMPLICIT NONE\)$")
      X = 2.0
C@diag(syntax, "^expected an expression, found end of statement$", error)
      A(1) = (A(2) + 
C@nodiag(syntax)
      IF (A(1) .GT. 0.0) THEN
         A(2) = 1.0
      END IF
      END
