/** The bookstore's data, in memory: books by id, and each book's reviews. */
import { randomUUID } from 'node:crypto';
import type * as codec from '@lib/codec';
import type { Book, NewBook, NewReview, Review } from './generated/bookstore.js';

export type BookValue = codec.Infer<typeof Book>;
export type NewBookValue = codec.Infer<typeof NewBook>;
export type ReviewValue = codec.Infer<typeof Review>;
export type NewReviewValue = codec.Infer<typeof NewReview>;

/** Why the store refused a change: the handlers answer it with the status the document gives. */
export class StoreError extends Error {
  constructor(
    readonly code: 'not-found' | 'isbn-taken' | 'comment-needed',
    detail: string,
  ) {
    super(detail);
    this.name = 'StoreError';
  }
}

export class Store {
  private readonly books = new Map<string, BookValue>();
  private readonly reviews = new Map<string, ReviewValue[]>();

  list(author: string | undefined, limit: number): { items: BookValue[]; total: number } {
    const all = [...this.books.values()].filter((b) => author === undefined || b.author === author);
    return { items: all.slice(0, limit), total: all.length };
  }

  get(id: string): BookValue {
    const b = this.books.get(id);
    if (b === undefined) throw new StoreError('not-found', `no book has the id ${id}`);
    return b;
  }

  create(input: NewBookValue): BookValue {
    this.checkIsbn(input.isbn, undefined);
    const book: BookValue = { id: randomUUID(), ...input };
    this.books.set(book.id, book);
    this.reviews.set(book.id, []);
    return book;
  }

  replace(id: string, input: NewBookValue): BookValue {
    this.get(id);
    this.checkIsbn(input.isbn, id);
    const book: BookValue = { id, ...input };
    this.books.set(id, book);
    return book;
  }

  remove(id: string): void {
    this.get(id);
    this.books.delete(id);
    this.reviews.delete(id);
  }

  reviewsOf(bookId: string): ReviewValue[] {
    this.get(bookId);
    return this.reviews.get(bookId) ?? [];
  }

  addReview(bookId: string, input: NewReviewValue): ReviewValue {
    const list = this.reviewsOf(bookId);
    if (input.rating === 1 && (input.comment ?? '').trim() === '') throw new StoreError('comment-needed', 'a rating of 1 needs a comment');
    const review: ReviewValue = { id: randomUUID(), bookId, ...input, createdAt: new Date().toISOString() };
    list.push(review);
    return review;
  }

  private checkIsbn(isbn: string, self: string | undefined): void {
    for (const b of this.books.values()) if (b.isbn === isbn && b.id !== self) throw new StoreError('isbn-taken', `the book ${b.id} has the ISBN ${isbn}`);
  }
}
