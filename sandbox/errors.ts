/** The error every sandbox handler throws: HTTP status, message and the `errors` list of the error body. */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		message: string,
		readonly errors: string[] = [message],
	) {
		super(message);
	}
}
