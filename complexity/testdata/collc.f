C     NAME=COLLC (the routine of seed 004 section 6, from the TFS
C     program of the PERFECT Club, transcribed from the report's listing)
      SUBROUTINE COLLC (I2,J2,W,VOL,II2,JJ2,WW,WR)
C     COLLECTS RESIDUALS FOR THE NEXT MESH
      COMMON/LIM/ IL,JL
      COMMON/ADD/ DW(194,34,4)
      COMMON/MGR/ KODE,MODE
      DIMENSION W(I2,J2,4),VOL(I2,J2),WW(II2,JJ2,4),WR(II2,JJ2,4)
      IIL = II2-1
      DO 10 N = 1, 4
      JJ = 1
      DO 10 J = 2, JL, 2
      JJ = JJ+1
      II = 1
      DO 10 I = 2, IL, 2
      II = II+1
      WR(II,JJ,N) = DW(I,J,N)+DW(I+1,J,N)+DW(I,J+1,N)+DW(I+1
     &,J+1,N)
   10 CONTINUE
      DO 20 N = 1, 4
      DO 20 J = 1, J2
      DO 20 I = 1, I2
      DW(I,J,N) = VOL(I,J)*W(I,J,N)
   20 CONTINUE
      DO 30 N = 1, 4
      JJ = 1
      DO 30 J = 2, JL, 2
      JJ = JJ+1
      II = 1
      DO 25 I = 2, IL, 2
      II = II+1
      WW(II,JJ,N) = (DW(I,J,N)+DW(I+1,J,N)+DW(I,J+1,N)+DW(I+
     &1,J+1,N))/(VOL(I,J)+VOL(I+1,J)+VOL(I,J+1)+VOL(I+1,J+1)
     &)
   25 CONTINUE
      WW(1,JJ,N) = WW(IIL,JJ,N)
      WW(II2,JJ,N) = WW(2,JJ,N)
   30 CONTINUE
      DO 40 N = 1, 4
      II = 1
      DO 35 I = 2, IL, 2
      II = II+1
      WW(II,JJ2,N) = (DW(I,J2,N)+DW(I+1,J2,N))/(VOL(I,J2)+VOL(I
     & +1,J2))
   35 CONTINUE
      WW(1,JJ2,N) = WW(IIL,JJ2,N)
      WW(II2,JJ2,N) = WW(2,JJ2,N)
   40 CONTINUE
      RETURN
      END
