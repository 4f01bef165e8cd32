C     SUB2 of seed 004: the loop estimate keeps the intermediate variables
C     II and JJ, which the complexity (and the inlay hints) eliminate in
C     favour of I, J and M; and it prints rational seconds.
      SUBROUTINE SUB2(M)
      INTEGER M
C@estimate(noreport "II|JJ")
C@estimate(noreport "\d+/\d+\*")
      DO 10 I = 1, M
         II = I + 1
         DO 20 J = II, M + 2
            JJ = I + J - 2
            DO 30 K = JJ + 2, M + 10
               T = T + 1.0
               U = U + 1.0
   30       CONTINUE
   20    CONTINUE
   10 CONTINUE
      RETURN
      END
