# LLVM-MCA-BEGIN
	kandw	%k1, %k2, %k3
# LLVM-MCA-END
