// The truth behind the consent web's pages: the recipes a crawl with cookies collects.

export interface ConsentRecipe {
  readonly slug: string;
  readonly name: string;
  readonly category: 'soups' | 'breads';
  readonly minutes: number;
  readonly ingredients: readonly string[];
}

const RECIPES: readonly ConsentRecipe[] = [
  {
    slug: 'leek-potato-soup',
    name: 'Leek and potato soup',
    category: 'soups',
    minutes: 40,
    ingredients: ['leeks', 'potatoes', 'butter', 'stock'],
  },
  {
    slug: 'tomato-soup',
    name: 'Roast tomato soup',
    category: 'soups',
    minutes: 55,
    ingredients: ['tomatoes', 'garlic', 'olive oil', 'basil'],
  },
  {
    slug: 'pea-mint-soup',
    name: 'Pea and mint soup',
    category: 'soups',
    minutes: 20,
    ingredients: ['peas', 'mint', 'onion', 'stock'],
  },
  {
    slug: 'lentil-soup',
    name: 'Red lentil soup',
    category: 'soups',
    minutes: 35,
    ingredients: ['red lentils', 'carrot', 'cumin', 'lemon'],
  },
  {
    slug: 'soda-bread',
    name: 'Soda bread',
    category: 'breads',
    minutes: 50,
    ingredients: ['flour', 'buttermilk', 'baking soda', 'salt'],
  },
  {
    slug: 'focaccia',
    name: 'Rosemary focaccia',
    category: 'breads',
    minutes: 150,
    ingredients: ['flour', 'yeast', 'olive oil', 'rosemary'],
  },
  {
    slug: 'rye-loaf',
    name: 'Rye loaf',
    category: 'breads',
    minutes: 240,
    ingredients: ['rye flour', 'sourdough starter', 'caraway', 'salt'],
  },
  {
    slug: 'flatbread',
    name: 'Skillet flatbread',
    category: 'breads',
    minutes: 25,
    ingredients: ['flour', 'yoghurt', 'baking powder', 'salt'],
  },
];

/** Every recipe of the consent web (a copy), in the order the index lists them. */
export function consentRecipes(): ConsentRecipe[] {
  return RECIPES.map((recipe) => ({ ...recipe, ingredients: [...recipe.ingredients] }));
}
