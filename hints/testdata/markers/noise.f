C     The red-black relaxation of redblack.f on a machine whose run-to-run
C     noise is 1000%: every candidate is about the same as the current
C     distribution, and none is preferred.
C@noise(10)
C@ignore(loop-distribution)
      PROGRAM REDBLK
      PARAMETER (N = 512, NCYCLE = 100, NPROC = 16)
      REAL VAL(0:N+1,0:N+1), A, B
      DECOMPOSITION G(0:N+1,0:N+1)
      ALIGN VAL WITH G
      DISTRIBUTE G(BLOCK,BLOCK)
      A = 0.25
      B = 0.0
C@action("^Distribute G\(:,BLOCK\): .*, within noise$", detail="about the same as G\(BLOCK,BLOCK\): the difference is within the machine's run-to-run noise of 1000%", preferred=false)
C@action("^Distribute G\(BLOCK,:\): .*, within noise$", detail="about the same as G\(BLOCK,BLOCK\): the difference is within the machine's run-to-run noise of 1000%", preferred=false)
C@action("^Distribute G\(:,CYCLIC\): .*, within noise$", detail="about the same as G\(BLOCK,BLOCK\): the difference is within the machine's run-to-run noise of 1000%", preferred=false)
C@action("^Distribute G\(CYCLIC,:\): .*, within noise$", detail="about the same as G\(BLOCK,BLOCK\): the difference is within the machine's run-to-run noise of 1000%", preferred=false)
C@action("^Distribute G\(CYCLIC,BLOCK\): .*, within noise$", detail="about the same as G\(BLOCK,BLOCK\): the difference is within the machine's run-to-run noise of 1000%", preferred=false)
C@action("^Distribute G\(BLOCK,CYCLIC\): .*, within noise$", detail="about the same as G\(BLOCK,BLOCK\): the difference is within the machine's run-to-run noise of 1000%", preferred=false)
C@action("^Distribute G\(CYCLIC,CYCLIC\): .*, within noise$", detail="about the same as G\(BLOCK,BLOCK\): the difference is within the machine's run-to-run noise of 1000%", preferred=false)
C@noaction("% vs")
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
