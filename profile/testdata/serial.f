C     serial.f -- a fixed-form serial program for pfls profile's tests:
C     labelled DO loops sharing a terminal statement, an IF construct, a
C     subroutine left through RETURN, loops left by GO TO or CYCLE of
C     an outer loop, DO WHILE, long bounds, SELECT CASE without DEFAULT.
C     Expectations are the !@profile annotations (one process).
      PROGRAM SERIAL
      INTEGER N, I, J, K, NODD
      PARAMETER (N = 30)
      REAL A(N, N)
      NODD = 0
      DO 10 J = 1, N        !@profile(count=30, entries=1)
      DO 10 I = 1, J        !@profile(count=465, entries=30)
         A(I, J) = REAL(I + J)
   10 CONTINUE
      DO 20 K = 1, N        !@profile(count=30, entries=1)
         IF (MOD(K, 2) .EQ. 1) THEN !@profile(count=15)
            NODD = NODD + 1
         ELSE               !@profile(count=15)
            CALL SCALE(A, N, K)
         END IF
   20 CONTINUE
      DO 40 I = 1, N        !@profile(count=8, entries=1)
         IF (I .GT. 7) GO TO 50
         NODD = NODD + 1
   40 CONTINUE
   50 CONTINUE
      K = 0
      DO WHILE (K .LT. 5)   !@profile(count=5, entries=1)
         K = K + 1
      END DO
      DO 60 I = MOD(N, 7) + 1, N - MOD(N, 3) + MAX(N, 2) - MAX(N, 2), 2 !@profile(count=14)
         A(I, 1) = 1.0
   60 CONTINUE
      CALL NAMED(4)
      PRINT *, 'serial', NODD, A(1, 1)
      END
      SUBROUTINE SCALE(A, N, K) !@profile(count=15)
      INTEGER N, K, I
      REAL A(N, N)
      DO 30 I = 1, N        !@profile(count=450, entries=15)
         A(I, K) = 0.5 * A(I, K)
   30 CONTINUE
      IF (K .GT. 0) RETURN
      A(1, 1) = 0.0
      RETURN
      END
      SUBROUTINE NAMED(M)
      INTEGER M, I, J, S
      S = 0
      OUTER: DO I = 1, M    !@profile(count=4, entries=1)
         INNER: DO J = 1, M !@profile(count=13, entries=4)
            IF (J .GT. I) CYCLE OUTER
            S = S + J
         END DO INNER
      END DO OUTER
      PRINT *, 'named', S
      DO I = 1, 6           !@profile(count=6, entries=1)
         SELECT CASE (I)
         CASE (1, 2)        !@profile(count=2)
            S = S + 1
         CASE (5)           !@profile(count=1)
            S = S + 2
         END SELECT         !@profile(count=3)
      END DO
      PRINT *, 'cases', S
      END
