import { PayOnUsApiError } from './apiError';
import { capitalized } from './titles';

/** Reading and rewording an error of the transport in an operation. */

/** HTTP status of an error of the transport (undefined for any other error). */
export function statusOf(error: unknown): number | undefined {
	return error instanceof PayOnUsApiError ? error.status : undefined;
}

/**
 * Gives a service error of one status a title of the operation's own
 * (e.g. a 404 of Get Payment: which payment was not found); the error keeps
 * its status, description and details. Other errors pass unchanged.
 */
export function retitle(error: unknown, status: number, title: string, description?: string): unknown {
	if (statusOf(error) === status && error instanceof PayOnUsApiError) {
		error.message = title;
		if (description) error.description = description;
	}
	return error;
}

/** The most words an error title has (issue 31): longer explanations go to the description. */
export const MAX_TITLE_WORDS = 12;

export function wordCount(text: string): number {
	return text.split(/\s+/).filter((w) => w !== '').length;
}

/**
 * What a service error means for one call: a short title (at most
 * MAX_TITLE_WORDS words, naming the thing and the field) and one line on
 * what to do, which goes first in the description, before the details.
 */
export interface Meaning {
	title: string;
	todo: string;
}

/**
 * Gives a service error what it means for this call (the error keeps its
 * type, status and details, so n8n still shows the service's own words):
 * a Meaning sets the title and puts its what-to-do line first in the
 * description; a plain text of at most MAX_TITLE_WORDS words becomes the
 * title; a longer one is added to the description, after the line on what
 * to do, and the title stays the transport's (naming the thing and the
 * field). Errors of other statuses pass unchanged.
 */
export function explain(error: unknown, meanings: Partial<Record<number, string | Meaning>>): unknown {
	const status = statusOf(error);
	const meaning = status === undefined ? undefined : meanings[status];
	if (meaning && error instanceof PayOnUsApiError) {
		if (typeof meaning === 'object') {
			error.message = meaning.title;
			error.description = error.description ? `${meaning.todo} ${error.description}` : meaning.todo;
		} else if (wordCount(meaning) <= MAX_TITLE_WORDS) error.message = meaning;
		else {
			const sentence = `${capitalized(meaning.trim()).replace(/\.$/, '')}.`;
			error.description = error.description ? `${error.description} ${sentence}` : sentence;
		}
	}
	return error;
}
