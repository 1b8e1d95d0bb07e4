import { describe, expect, it } from 'vitest';
import { isFurnitureLine } from '../src/edge-lines.js';

describe('isFurnitureLine', () => {
  it('finds datelines, bylines and labels', () => {
    for (const line of [
      'Updated 9:38 pm, 18 Nov 2019',
      'Nov 18, 2019 @17:19 PM · Updated: Nov 18, 2019 @17:26 PM',
      'By Ada Lindqvist',
      'Share this story',
      'Caption',
    ]) {
      expect(isFurnitureLine(line), line).toBe(true);
    }
  });

  it('leaves sentences alone, short ones included', () => {
    for (const line of [
      'The bridge reopened on Monday, two years after engineers closed it when cracks were found in 2024 and the council had to find the money to repair it.',
      'It worked.',
      'Is it ruined?',
      'Bylines are written by editors.',
    ]) {
      expect(isFurnitureLine(line), line).toBe(false);
    }
  });
});
