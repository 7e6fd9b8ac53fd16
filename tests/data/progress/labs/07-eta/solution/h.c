int x;
/* TODO 1: step 1 */
/* END TODO 1 */
/* TODO 2: step 2 */
/* END TODO 2 */
