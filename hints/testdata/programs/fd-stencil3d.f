C     7-point Jacobi relaxation on a 3-D grid, Fortran D, the last
C     dimension distributed in blocks (slabs).
C
C     Expert's view: each sweep reads the six neighbours; under
C     D(:,:,BLOCK) only U(I,J,K-1) and U(I,J,K+1) cross processors: two
C     vectorized shifts of the 126 x 126 interior of one plane per sweep
C     (message vectorization out of the I and J loops): 63504 bytes. The
C     copy back is local. D(:,:,CYCLIC) makes every plane remote: each
C     processor sends all its 8 planes twice instead of 2 planes, with
C     the same computation: slower by the extra 4x communication (about
C     1.2-2x at this size). V is aligned with U: no missing ALIGN.
      PROGRAM ST3D
      PARAMETER (N = 128, NIT = 50)
      REAL U(N,N,N), V(N,N,N)
      DECOMPOSITION D(N,N,N)
      ALIGN U, V WITH D
      DISTRIBUTE D(:,:,BLOCK)
      DO 5 K = 1, N
         DO 5 J = 1, N
            DO 5 I = 1, N
               U(I,J,K) = 0.0
               V(I,J,K) = 0.0
    5 CONTINUE
C@estimate(current "D(:,:,BLOCK)")
C@estimate(report "shift of U: 50 × 63504 bytes")
C@estimate(beats "D(:,:,BLOCK)", over="D(:,:,CYCLIC)", by="1.2-2")
C@nodiag(missing-align)
      DO 50 IT = 1, NIT
C        the boundary planes wait for the shifts, the interior need not:
C        splitting the loop hides them (seed 000's loop distribution)
C@diag(loop-distribution, "wait for 2 shift\(s\).*7% of the loop", information)
         DO 30 K = 2, N-1
            DO 20 J = 2, N-1
               DO 10 I = 2, N-1
                  V(I,J,K) = (U(I-1,J,K) + U(I+1,J,K) + U(I,J-1,K)
     &              + U(I,J+1,K) + U(I,J,K-1) + U(I,J,K+1))/6.0
   10          CONTINUE
   20       CONTINUE
   30    CONTINUE
C@estimate(report "communication 0 ns")
         DO 40 K = 2, N-1
            DO 40 J = 2, N-1
               DO 40 I = 2, N-1
                  U(I,J,K) = V(I,J,K)
   40    CONTINUE
   50 CONTINUE
      PRINT *, U(N/2,N/2,N/2)
      END
