C golabel.f -- statements reached by a GO TO to their label: a labelled
C DO, RETURN and END. The counters and timers inserted before them run
C on the jump too. Expectations are the annotations (one process).
      PROGRAM GOLAB
      INTEGER K, N
      REAL A(10)
      N = 10
      DO 20 K = 1, 4                  !@profile(count=4, entries=1)
        CALL FILL(A, N, K)
   20 CONTINUE
      PRINT *, A(N)
      END
      SUBROUTINE FILL(A, N, K)        !@profile(count=4)
      INTEGER N, K, I
      REAL A(N)
      IF (K .GT. 2) GO TO 5
      A(1) = 0
    5 DO 10 I = 1, N                  !@profile(count=40, entries=4)
        A(I) = A(I) + I
   10 CONTINUE
      IF (K .EQ. 4) GO TO 99
      IF (K .EQ. 3) GO TO 30
      A(1) = A(1) + 1
      RETURN
   30 RETURN
   99 END
