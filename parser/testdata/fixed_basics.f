C     Fixed-form basics: insignificant blanks, labels, continuation,
C     column 72, shared DO terminators, arithmetic IF, computed GOTO.
      PROGRAM BASICS
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      INTEGER I, J, K, N
      PARAMETER (N = 10)
      DIMENSION A(N,N), B(N)
      REAL*8 X, Y(10)
      CHARACTER*8 NAME, LINE*80
      CHARACTER*(*) CPARM
      PARAMETER (CPARM = 'it''s')
      LOGICAL FLAG
      COMMON /BLK1/ X, Y /BLK2/ Z
      COMMON // W
      DATA B /10*0.0D0/, FLAG /.TRUE./
      EQUIVALENCE (X, Y(1))
      SAVE /BLK1/
      EXTERNAL FOO
      INTRINSIC SQRT
      DO10I=1,10
         B(I) = I
   10 CONTINUE
      DO10I=1.10
      DO 20 K = 1, N
         DO 20 J = 1, N
            A(J,K) = 0.0D0
   20 CONTINUE
      DO 30, I = N, 1, -1
         IF (B(I)) 31, 32, 33
   31    GOTO 30
   32    GO TO 30
   33    CONTINUE
   30 CONTINUE
      GO TO (40, 50), I
   40 CONTINUE
   50 IF (X .GT. 0.0 .AND. .NOT. FLAG) X = -X
      IF (X.EQ.1.AND.Y(1).NE.2) THEN
         X = 1.E5 + 1.D0 + .5 + 1.
      ELSE IF (X .LT. 0) THEN
         X = X ** 2 ** 3
      ELSEIF (X .GE. 1) THEN
         X = 3
      ELSE
         X = 4
      END IF
      Y(1) = A(1,1) + B(2) * (X - Y(3)) / 2.0 - SQRT(X) + FOO(X)
     &     + A(2,2)
     +     - 1.0                                                        IGNORED
      NAME = 'ABC' // 'DEF'
      LINE(1:3) = NAME(2:4)
      WRITE (6, 100) X, (B(I), I = 1, N)
  100 FORMAT (1X, 'X = ', F10.3, 5HHELLO, 10F8.2)
      PRINT *, 'done', X
      READ (5, *) I
      READ *, J
      CALL SUB (A, N, *40, 3HABC)
      ASSIGN 40 TO K
      STOP
      END

      SUBROUTINE SUB (A, N, *, H)
      DOUBLE PRECISION A(N, *)
      INTEGER N
      CHARACTER*3 H
      DO 10 I = 1, N
         A(I,1) = A(I,1) + 1
   10 CONTINUE
      RETURN 1
      END

      REAL*8 FUNCTION FOO(X)
      REAL*8 X
      FOO = X*2
      END
