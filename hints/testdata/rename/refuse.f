!@rename("M)", MCOUNT)
!@rename("M2)", M2X)
!@rename("M3)", M3LONGER)
!@rename("M4)", M4XX)
!@rename("X ="#1, SUM)
!@rename("X ="#1, STAT)
!@rename("X ="#1, A)
!@rename("X ="#1, SUMX)
!@rename("X ="#1, 1X)
!@rename("X ="#1, A-B)
!@rename("X ="#1, XABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJK)
!@rename("I = 1", X)
!@rename("I = 1", K)
!@rename("I = 1", IF)
!@rename("I2 = I", X2)
!@rename("J = I", VERYLONGNAMEFORJ)
!@rename("J = I", L)
!@rename("J = I", JVERYLONGNAME)
!@rename("N)", NTWO)
!@rename("SUM(A)", TOTAL)
!@rename("X ="#2, SUM)
      SUBROUTINE STAT(A, N, X)
      INTEGER N
      REAL A(N), X
      X = SUM(A) / N
      END
      SUBROUTINE IMPL
      INTEGER I2
      DO 10 I = 1, 3
         I2 = I
         J = I * 2 + I2 + J + J + J + J + J + J + J + J + J + J + J + J
   10 CONTINUE
      END
      SUBROUTINE TWO(A)
      REAL A(3)
      X = A(1)
      END
      SUBROUTINE LINES1(M)
      INTEGER M
      PRINT *, 'M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M', M
      END
      SUBROUTINE LINES2(M2)
      INTEGER M2
      M2 = M2 + 1                                                       LINE0001
      END
      SUBROUTINE LINES3(M3)
      INTEGER M3
      M3 = M3 + M3 + M3 + M3 + M3 + M3 + M3 + M3 + M3 + M3 + M3 ! M3
      END
      SUBROUTINE LINES4(M4)
      INTEGER M4
      M4=M4+M4+M4+M4+M4+M4+M4+M4+M4+M4+M4+M4+M4+M4+M4+M4+M4+M4+M4+M4+M4
      END
