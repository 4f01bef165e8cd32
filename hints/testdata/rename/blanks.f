!@rename("N MAX", KSIZE)
!@rename("NMAX", KSIZE)
!@rename("I T ER", NSTEP)
!@rename("A L P", BETA)
      PROGRAM BLANKS
      INTEGER N MAX, I T ER
      PARAMETER (N MAX = 10)
      REAL A(NMAX), A L P
      ALP = 0.5
      DO 10 I = 1, N M A X
         A(I) = ALP * I
   10 CONTINUE
      ITER = ITER + 1
      CALL SHOW(A, N MAX)
      END
      SUBROUTINE SHOW(A, N)
      INTEGER N
      REAL A(N)
      PRINT *, A(N)
      END
