      PROGRAM TABS
	X = 1
	1+ 2
10	CONTINUE
      Y = X + 1                                                         00000010
      END
