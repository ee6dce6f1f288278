// The user object of the size comparison as valibot declares it, for oRPC's contract.
import * as v from 'valibot';

export const address = v.object({
  street: v.pipe(v.string(), v.minLength(1)),
  city: v.pipe(v.string(), v.minLength(1)),
  zip: v.string(),
  country: v.pipe(v.string(), v.minLength(2), v.maxLength(2)),
});
export const user = v.object({
  id: v.pipe(v.string(), v.uuid()),
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
  email: v.pipe(v.string(), v.email()),
  age: v.pipe(v.number(), v.integer(), v.minValue(0)),
  tags: v.array(v.string()),
  address,
  createdAt: v.pipe(v.string(), v.isoTimestamp()),
});
export const userInput = v.omit(user, ['id', 'createdAt']);
export const byId = v.object({ id: v.pipe(v.string(), v.uuid()) });
