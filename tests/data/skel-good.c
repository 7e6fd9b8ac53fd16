int lab_one(void)
{
	/* TODO 1: return one */
	int x = 1;

	return x;
	/* END TODO 1 */
}

const char *lab_two(void)
{
	/* TODO 2: the word "two" */
	return "two";
	/* END TODO 2: return LAB_TODO_NULL(2); */
}
