C     ring.f -- a fixed-form MPI program (INCLUDE 'mpif.h') for pfls
C     profile's tests: 2 of a token's 3 numbers passed around the ring
C     NTRIP times (MPI_SEND, MPI_RECV: received less than its room), rank
C     0 first. Expectations for P = 2 are the annotations at line ends.
      PROGRAM RING
      INCLUDE 'mpif.h'
      INTEGER NTRIP
      PARAMETER (NTRIP = 6)
      INTEGER IERR, RANK, NP, NEXT, PREV, ITRIP, ISTAT(MPI_STATUS_SIZE)
      DOUBLE PRECISION TOKEN(3)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      NEXT = MOD(RANK + 1, NP)
      PREV = MOD(RANK + NP - 1, NP)
      TOKEN(1) = 0
      DO 10 ITRIP = 1, NTRIP                                            !@profile(count=12, entries=2)
         IF (RANK .EQ. 0) THEN                                          !@profile(count=6)
            TOKEN(1) = TOKEN(1) + 1
            CALL MPI_SEND(TOKEN, 2, MPI_DOUBLE_PRECISION, NEXT, 5,      !@profile(calls=6, bytes=96)
     &                    MPI_COMM_WORLD, IERR)
            CALL MPI_RECV(TOKEN, 3, MPI_DOUBLE_PRECISION, PREV, 5,      !@profile(calls=6, bytes=96)
     &                    MPI_COMM_WORLD, ISTAT, IERR)
         ELSE                                                           !@profile(count=6)
            CALL MPI_RECV(TOKEN, 3, MPI_DOUBLE_PRECISION, PREV, 5,      !@profile(calls=6, bytes=96)
     &                    MPI_COMM_WORLD, ISTAT, IERR)
            TOKEN(1) = TOKEN(1) + 1
            CALL MPI_SEND(TOKEN, 2, MPI_DOUBLE_PRECISION, NEXT, 5,      !@profile(calls=6, bytes=96)
     &                    MPI_COMM_WORLD, IERR)
         END IF
   10 CONTINUE
      IF (RANK .EQ. 0) PRINT *, 'ring', TOKEN(1)
      CALL MPI_FINALIZE(IERR)
      END
