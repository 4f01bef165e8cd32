C     Fixed-form corners: names that are keywords, Hollerith, statement
C     functions, debug lines, labels with blanks, BLOCK DATA, ENTRY.
      PROGRAM EDGE
      INTEGER DO, IF, END, GOTO
      DIMENSION IARR(5)
      CHARACTER*10 STR
      REAL INTF
      INTF(X) = X**2 + 1.0
      DO = 1
      IF = 2
      END = 3
      GOTO = DO + IF + END
      DO 1 0 I = 1, 5
         IARR(I) = I
 1 0  CONTINUE
      IF (IF .EQ. 2) GO TO 20
D     PRINT *, 'debug line'
   20 STR = 'it''s "ok"'
      CALL SHOW(5HHELLO, 11HHELLO WORLD)
      DATA STR2 /4HABCD/
      X = INTF(2.0)
      GO TO 30
   30 CONTINUE
      END

      BLOCK DATA INIT
      COMMON /C1/ A(3), N
      DATA A /1.0, 2.0, 3.0/, N /3/
      DATA (B(I), I = 1, 2) /2*0.0/
      END

      DOUBLE PRECISION FUNCTION DF(X)
      DOUBLE PRECISION X
      DF = X
      RETURN
      ENTRY DG(X)
      DG = -X
      END

      CHARACTER*10 FUNCTION CF()
      CF = 'X'
      END

      RECURSIVE INTEGER FUNCTION FACT(N) RESULT(R)
      INTEGER N
      IF (N .LE. 1) THEN
         R = 1
      ELSE
         R = N * FACT(N - 1)
      ENDIF
      END
