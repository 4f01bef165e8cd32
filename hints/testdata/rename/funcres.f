!@rename("AREA(2.0)", SURF)
!@rename("AREA(2.0)", IAREA)
!@rename("AREA = ", SURF)
!@rename("R)", RAD)
      PROGRAM FR
      REAL Y
      Y = AREA(2.0) + AREA(3.0)
      PRINT *, Y
      END
      REAL FUNCTION AREA(R)
      REAL R
      AREA = 3.14159 * R * R
      END
