	.text
	.file	"triad.c"#