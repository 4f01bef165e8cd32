C     Fortran D: the arrays are declared before their decompositions, and
C     B is aligned with its own. The ALIGN the fix writes names DA, so it
C     must come after DECOMPOSITION DA, and B's ALIGN WITH DB must go.
      PROGRAM FDDEC
      PARAMETER (N = 512)
      REAL A(N,N), B(N,N)
      DECOMPOSITION DA(N,N), DB(N,N)
      ALIGN A WITH DA
      ALIGN B WITH DB
      DISTRIBUTE DA(BLOCK,:)
      DISTRIBUTE DB(:,BLOCK)
      DO 10 J = 1, N
         DO 10 I = 1, N
            B(I,J) = A(I,J) * 2.0
   10 CONTINUE
      PRINT *, B(1,1)
      END
