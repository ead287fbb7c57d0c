import { IsInt, IsString, MaxLength } from 'class-validator';
import { parseInput } from '../src/dto/parse-input';

class Base {
  @IsString() @MaxLength(3) code!: string;
}

const problemsOf = (dto: new () => object, body: object) => {
  try {
    parseInput(dto, body, 'body');
    return [];
  } catch (error) {
    return (error as { invalidParams: Array<{ name: string }> }).invalidParams.map((problem) => problem.name).sort();
  }
};

describe("class-validator's checks, looked up once per class", () => {
  it('holds checks registered after a first validation: on the class validated, and on a class inheriting it', () => {
    expect(problemsOf(Base, { code: 'long', count: 'x' })).toEqual(['code']);
    // Registered only now, as a module loaded later would.
    IsInt()(Base.prototype, 'count');
    expect(problemsOf(Base, { code: 'long', count: 'x' })).toEqual(['code', 'count']);
    class Later extends Base {
      @IsInt() size!: number;
    }
    expect(problemsOf(Later, { code: 'long', count: 'x', size: 'y' })).toEqual(['code', 'count', 'size']);
    expect(problemsOf(Later, { code: 'ok', count: 2, size: 3 })).toEqual([]);
  });
});
