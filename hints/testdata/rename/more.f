!@rename("NX = 3", NY)
!@rename("N LONG", NWIDE)
!@rename("WORK/", DATA)
!@rename("WORK/", SHARED)
!@rename("LOCAL2(1.0", LOCAL3)
!@rename("A, |MM"#2, KK)
!@rename("A, |MM"#1, KK)
!@rename("LOCAL(", HELPER)
!@rename("LOCAL(", EXTLIB)
!@rename("W1 ="#1, W3)
!@rename("Q = 1", P)
!@rename("MM = 2", KK)
      PROGRAM MORE
      INCLUDE 'more.inc'
      REAL W1, W2
      COMMON /WORK/ W1, W2
      INTEGER NLONGX
      NX = 3
      W1 = 1.0
      NLONGX = 1
      CALL LOCAL(W1, NX)
      CALL EXTLIB(N LONG
     &   X)
      CALL EXTLIB(NLONG
     &   X)
      END
      SUBROUTINE LOCAL(A, N)
      REAL A, W1, W2
      COMMON /WORK/ W1, W2
      COMMON /DATA/ Q
      INTEGER N
      W1 = A * N
      Q = 1
      END
      SUBROUTINE IFACE
      INTERFACE
         SUBROUTINE LOCAL2(A, MM)
         REAL A
         INTEGER MM
         END SUBROUTINE
      END INTERFACE
      MM = 2
      CALL LOCAL2(1.0, MM)
      END
      SUBROUTINE LOCAL2(A, MM)
      REAL A
      INTEGER MM
      PRINT *, A, MM
      END
