import 'reflect-metadata';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class LoginBody {
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  clientId!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  clientSecret!: string;
}
