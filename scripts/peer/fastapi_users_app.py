"""The peer that scripts/bench-peer.sh measures Gatehouse against: fastapi-users 15.0.5 set up
as its documentation does (SQLAlchemy on aiosqlite, a JWT bearer backend), hashing with pwdlib's
argon2id at Gatehouse's cost (m=19 MiB, t=2, p=1). Run under uvicorn with 2 workers;
`python fastapi_users_app.py EMAIL PASSWORD` creates the schema and the one account."""
import asyncio
import os
import sys
import uuid

from fastapi import Depends, FastAPI
from fastapi_users import BaseUserManager, FastAPIUsers, UUIDIDMixin, schemas
from fastapi_users.authentication import AuthenticationBackend, BearerTransport, JWTStrategy
from fastapi_users.db import SQLAlchemyBaseUserTableUUID, SQLAlchemyUserDatabase
from fastapi_users.password import PasswordHelper
from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher
from sqlalchemy.ext.asyncio import async_sessionmaker, create_async_engine
from sqlalchemy.orm import DeclarativeBase

DATABASE = os.environ.get("PEER_DATABASE", "sqlite+aiosqlite:///./peer.sqlite")
SECRET = os.environ.get("PEER_SECRET", "bench-peer-secret-not-for-production")


class Base(DeclarativeBase):
    pass


class User(SQLAlchemyBaseUserTableUUID, Base):
    pass


class UserRead(schemas.BaseUser[uuid.UUID]):
    pass


class UserCreate(schemas.BaseUserCreate):
    pass


engine = create_async_engine(DATABASE)
sessions = async_sessionmaker(engine, expire_on_commit=False)
passwords = PasswordHelper(PasswordHash((Argon2Hasher(time_cost=2, memory_cost=19456, parallelism=1),)))


class UserManager(UUIDIDMixin, BaseUserManager[User, uuid.UUID]):
    reset_password_token_secret = SECRET
    verification_token_secret = SECRET


async def user_database():
    async with sessions() as session:
        yield SQLAlchemyUserDatabase(session, User)


async def user_manager(database=Depends(user_database)):
    yield UserManager(database, passwords)


backend = AuthenticationBackend(name="jwt", transport=BearerTransport(tokenUrl="auth/jwt/login"),
                                get_strategy=lambda: JWTStrategy(secret=SECRET, lifetime_seconds=3600))
users = FastAPIUsers[User, uuid.UUID](user_manager, [backend])
app = FastAPI()
app.include_router(users.get_auth_router(backend), prefix="/auth/jwt")
app.include_router(users.get_users_router(UserRead, schemas.BaseUserUpdate), prefix="/users")


@app.get("/health")
async def health():
    return {"status": "ok"}


async def create(email, password):
    async with engine.begin() as connection:
        await connection.run_sync(Base.metadata.create_all)
    async with sessions() as session:
        await UserManager(SQLAlchemyUserDatabase(session, User), passwords).create(UserCreate(email=email, password=password))


if __name__ == "__main__":
    asyncio.run(create(sys.argv[1], sys.argv[2]))
