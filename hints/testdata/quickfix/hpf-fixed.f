C     Fixed form: X and Y share one DISTRIBUTE by rows; W is aligned
C     with the column template. The loop writes Y from W alone.
      PROGRAM FIXED
      PARAMETER (N = 512)
      REAL W(N,N), X(N,N), Y(N,N)
!HPF$ TEMPLATE TC(N,N)
!HPF$ DISTRIBUTE TC(*,BLOCK)
!HPF$ ALIGN W(I,J) WITH TC(I,J)
!HPF$ DISTRIBUTE (BLOCK,*) :: X, Y
      W = 1.0
      X = 0.0
      DO 10 J = 1, N
         DO 10 I = 1, N
            Y(I,J) = W(I,J) + 1.0
   10 CONTINUE
      PRINT *, Y(1,1), X(1,1)
      END
