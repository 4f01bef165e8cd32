C     The red-black relaxation of redblack.f on a machine without
C     run-to-run noise: every candidate is titled with its change against
C     the current distribution.
C@noise(0)
C@ignore(loop-distribution)
      PROGRAM REDBLK
      PARAMETER (N = 512, NCYCLE = 100, NPROC = 16)
      REAL VAL(0:N+1,0:N+1), A, B
      DECOMPOSITION G(0:N+1,0:N+1)
      ALIGN VAL WITH G
      DISTRIBUTE G(BLOCK,BLOCK)
      A = 0.25
      B = 0.0
C@action("^Distribute G\(:,BLOCK\): .*, [+-]\d+%$", detail="[+-]\d+% vs G\(BLOCK,BLOCK\)\)\. The edit changes VAL$", preferred=true)
C@action("^Distribute G\(BLOCK,:\): .*, [+-]\d+%$", detail="[+-]\d+% vs G\(BLOCK,BLOCK\)\)\. The edit changes VAL$")
C@action("^Distribute G\(:,CYCLIC\): .*, [+-]\d+%$", detail="[+-]\d+% vs G\(BLOCK,BLOCK\)\)\. The edit changes VAL$")
C@action("^Distribute G\(CYCLIC,:\): .*, [+-]\d+%$", detail="[+-]\d+% vs G\(BLOCK,BLOCK\)\)\. The edit changes VAL$")
C@action("^Distribute G\(CYCLIC,BLOCK\): .*, [+-]\d+%$", detail="[+-]\d+% vs G\(BLOCK,BLOCK\)\)\. The edit changes VAL$")
C@action("^Distribute G\(BLOCK,CYCLIC\): .*, [+-]\d+%$", detail="[+-]\d+% vs G\(BLOCK,BLOCK\)\)\. The edit changes VAL$")
C@action("^Distribute G\(CYCLIC,CYCLIC\): .*, [+-]\d+%$", detail="[+-]\d+% vs G\(BLOCK,BLOCK\)\)\. The edit changes VAL$")
C@noaction("within noise")
      DO 100 KC = 1, NCYCLE
         DO 10 J = 1, N, 2
            DO 10 I = 1, N, 2
               VAL(I,J) = A*(VAL(I,J-1) + VAL(I-1,J)
     &                  + VAL(I,J+1) + VAL(I+1,J)) + B*VAL(I,J)
   10    CONTINUE
         DO 20 J = 2, N, 2
            DO 20 I = 2, N, 2
               VAL(I,J) = A*(VAL(I,J-1) + VAL(I-1,J)
     &                  + VAL(I,J+1) + VAL(I+1,J)) + B*VAL(I,J)
   20    CONTINUE
         DO 30 J = 1, N, 2
            DO 30 I = 2, N, 2
               VAL(I,J) = A*(VAL(I,J-1) + VAL(I-1,J)
     &                  + VAL(I,J+1) + VAL(I+1,J)) + B*VAL(I,J)
   30    CONTINUE
         DO 40 J = 2, N, 2
            DO 40 I = 1, N, 2
               VAL(I,J) = A*(VAL(I,J-1) + VAL(I-1,J)
     &                  + VAL(I,J+1) + VAL(I+1,J)) + B*VAL(I,J)
   40    CONTINUE
  100 CONTINUE
      END
