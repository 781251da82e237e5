/** Text modules (wrangler `rules`) in Node: the contract project never serves them. */
export default "";
