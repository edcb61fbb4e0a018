--
-- PostgreSQL database dump
--


-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: alembic_version; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.alembic_version (
    version_num character varying(32) NOT NULL
);


--
-- Name: attendance; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.attendance (
    evening_id integer NOT NULL,
    member_id integer NOT NULL,
    coming boolean NOT NULL,
    said_at timestamp with time zone NOT NULL
);


--
-- Name: club; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.club (
    id integer NOT NULL,
    name character varying(80) NOT NULL,
    created_at timestamp with time zone NOT NULL,
    restored_at timestamp with time zone
);


--
-- Name: club_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.club_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: club_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.club_id_seq OWNED BY public.club.id;


--
-- Name: club_ratings; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.club_ratings (
    club_id integer NOT NULL,
    stamp character varying(80) NOT NULL,
    players json NOT NULL
);


--
-- Name: club_summary; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.club_summary (
    club_id integer NOT NULL,
    stamp character varying(80) NOT NULL,
    players json NOT NULL
);


--
-- Name: device; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.device (
    id integer NOT NULL,
    member_id integer NOT NULL,
    token_hash character varying(64) NOT NULL,
    label character varying(80) NOT NULL,
    created_at timestamp with time zone NOT NULL,
    last_seen_at timestamp with time zone,
    forgotten_at timestamp with time zone
);


--
-- Name: device_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.device_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: device_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.device_id_seq OWNED BY public.device.id;


--
-- Name: evening; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.evening (
    id integer NOT NULL,
    club_id integer NOT NULL,
    played_on date NOT NULL,
    place character varying(80),
    note character varying(500),
    created_at timestamp with time zone NOT NULL,
    closed_at timestamp with time zone,
    confirm_hands boolean DEFAULT false NOT NULL
);


--
-- Name: evening_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.evening_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: evening_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.evening_id_seq OWNED BY public.evening.id;


--
-- Name: game; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.game (
    id integer NOT NULL,
    club_id integer NOT NULL,
    teams character varying(3) NOT NULL,
    target integer NOT NULL,
    bidder_goes_out boolean NOT NULL,
    first_dealer integer NOT NULL,
    first_dealer_drawn boolean NOT NULL,
    created_at timestamp with time zone NOT NULL,
    revision integer DEFAULT 0 NOT NULL,
    changed_at timestamp with time zone,
    evening_id integer,
    abandoned_at timestamp with time zone,
    table_number integer DEFAULT 1 NOT NULL
);


--
-- Name: game_change; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.game_change (
    id integer NOT NULL,
    game_id integer NOT NULL,
    at timestamp with time zone NOT NULL,
    kind character varying(10) NOT NULL,
    number integer NOT NULL,
    member_id integer,
    device_id integer,
    who character varying(130) NOT NULL,
    hand_before json,
    hand_after json,
    totals_before json NOT NULL,
    totals_after json NOT NULL,
    details json
);


--
-- Name: game_change_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.game_change_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: game_change_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.game_change_id_seq OWNED BY public.game_change.id;


--
-- Name: game_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.game_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: game_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.game_id_seq OWNED BY public.game.id;


--
-- Name: gameseat; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.gameseat (
    game_id integer NOT NULL,
    seat integer NOT NULL,
    player_id integer NOT NULL,
    from_hand integer DEFAULT 1 NOT NULL
);


--
-- Name: hand; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.hand (
    id integer NOT NULL,
    game_id integer NOT NULL,
    number integer NOT NULL,
    calls json NOT NULL,
    trump character varying(8),
    points json,
    game_values json,
    recorded_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone,
    undone_at timestamp with time zone,
    entry_key character varying(40),
    to_confirm boolean DEFAULT false NOT NULL,
    recorded_team character varying(1),
    confirmed_team character varying(1)
);


--
-- Name: hand_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.hand_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: hand_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.hand_id_seq OWNED BY public.hand.id;


--
-- Name: invite; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.invite (
    id integer NOT NULL,
    club_id integer NOT NULL,
    role character varying(8) NOT NULL,
    token character varying(64) NOT NULL,
    code character varying(16) NOT NULL,
    game_id integer,
    created_by integer,
    created_at timestamp with time zone NOT NULL,
    revoked_at timestamp with time zone,
    expires_at timestamp with time zone
);


--
-- Name: invite_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.invite_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: invite_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.invite_id_seq OWNED BY public.invite.id;


--
-- Name: join_attempt; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.join_attempt (
    id integer NOT NULL,
    client character varying(64) NOT NULL,
    at timestamp with time zone NOT NULL
);


--
-- Name: join_attempt_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.join_attempt_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: join_attempt_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.join_attempt_id_seq OWNED BY public.join_attempt.id;


--
-- Name: kept_answer; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.kept_answer (
    key character varying(64) NOT NULL,
    game_id integer NOT NULL,
    revision integer NOT NULL,
    body text NOT NULL,
    headers json NOT NULL,
    kept_at timestamp with time zone NOT NULL
);


--
-- Name: live_draft; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.live_draft (
    game_id integer NOT NULL,
    seq integer NOT NULL,
    args json NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    device_id integer,
    step bigint DEFAULT '0'::bigint NOT NULL
);


--
-- Name: member; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.member (
    id integer NOT NULL,
    club_id integer NOT NULL,
    name character varying(40) NOT NULL,
    role character varying(8) NOT NULL,
    created_at timestamp with time zone NOT NULL,
    removed_at timestamp with time zone,
    invite_id integer
);


--
-- Name: member_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.member_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: member_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.member_id_seq OWNED BY public.member.id;


--
-- Name: player; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.player (
    id integer NOT NULL,
    club_id integer NOT NULL,
    name character varying(40) NOT NULL,
    name_key character varying(80) NOT NULL,
    created_at timestamp with time zone NOT NULL
);


--
-- Name: player_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.player_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: player_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.player_id_seq OWNED BY public.player.id;


--
-- Name: player_pairs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.player_pairs (
    player_id integer NOT NULL,
    stamp character varying(80) NOT NULL,
    pairs json NOT NULL
);


--
-- Name: player_rating; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.player_rating (
    game_id integer NOT NULL,
    player_id integer NOT NULL,
    team integer NOT NULL,
    rank integer NOT NULL,
    mu double precision NOT NULL,
    sigma double precision NOT NULL,
    games integer NOT NULL,
    share double precision DEFAULT 1 NOT NULL
);


--
-- Name: rated_game; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.rated_game (
    game_id integer NOT NULL,
    club_id integer NOT NULL,
    revision integer NOT NULL,
    finished_at timestamp with time zone
);


--
-- Name: season; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.season (
    id integer NOT NULL,
    club_id integer NOT NULL,
    name character varying(80) NOT NULL,
    starts_on date NOT NULL,
    ends_on date NOT NULL,
    ranked_by character varying(8) NOT NULL,
    min_evenings integer NOT NULL,
    drop_worst integer NOT NULL,
    created_at timestamp with time zone NOT NULL
);


--
-- Name: season_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.season_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: season_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.season_id_seq OWNED BY public.season.id;


--
-- Name: seat_summary; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.seat_summary (
    game_id integer NOT NULL,
    seat integer NOT NULL,
    player_id integer NOT NULL,
    revision integer NOT NULL,
    team character varying(1) NOT NULL,
    finished integer NOT NULL,
    won integer NOT NULL,
    hands integer NOT NULL,
    throw_ins_dealt integer NOT NULL,
    bids_3 integer NOT NULL,
    bids_4 integer NOT NULL,
    bids_5 integer NOT NULL,
    bids_6 integer NOT NULL,
    made_3 integer NOT NULL,
    made_4 integer NOT NULL,
    made_5 integer NOT NULL,
    made_6 integer NOT NULL,
    taken_as_bidder integer NOT NULL,
    took_high integer NOT NULL,
    took_low integer NOT NULL,
    took_right integer NOT NULL,
    took_left integer NOT NULL,
    took_joker integer NOT NULL,
    took_game integer NOT NULL,
    from_hand integer DEFAULT 1 NOT NULL,
    to_hand integer DEFAULT 1 NOT NULL,
    change_3 integer DEFAULT 0 NOT NULL,
    change_4 integer DEFAULT 0 NOT NULL,
    change_5 integer DEFAULT 0 NOT NULL,
    change_6 integer DEFAULT 0 NOT NULL
);


--
-- Name: club id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.club ALTER COLUMN id SET DEFAULT nextval('public.club_id_seq'::regclass);


--
-- Name: device id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.device ALTER COLUMN id SET DEFAULT nextval('public.device_id_seq'::regclass);


--
-- Name: evening id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.evening ALTER COLUMN id SET DEFAULT nextval('public.evening_id_seq'::regclass);


--
-- Name: game id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.game ALTER COLUMN id SET DEFAULT nextval('public.game_id_seq'::regclass);


--
-- Name: game_change id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.game_change ALTER COLUMN id SET DEFAULT nextval('public.game_change_id_seq'::regclass);


--
-- Name: hand id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.hand ALTER COLUMN id SET DEFAULT nextval('public.hand_id_seq'::regclass);


--
-- Name: invite id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.invite ALTER COLUMN id SET DEFAULT nextval('public.invite_id_seq'::regclass);


--
-- Name: join_attempt id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.join_attempt ALTER COLUMN id SET DEFAULT nextval('public.join_attempt_id_seq'::regclass);


--
-- Name: member id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.member ALTER COLUMN id SET DEFAULT nextval('public.member_id_seq'::regclass);


--
-- Name: player id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.player ALTER COLUMN id SET DEFAULT nextval('public.player_id_seq'::regclass);


--
-- Name: season id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.season ALTER COLUMN id SET DEFAULT nextval('public.season_id_seq'::regclass);


--
-- Data for Name: alembic_version; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.alembic_version VALUES ('0022');


--
-- Data for Name: attendance; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: club; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.club VALUES (1, 'Our table', '2026-12-06 06:56:48.416887+00', NULL);


--
-- Data for Name: club_ratings; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: club_summary; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: device; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.device VALUES (3, 3, '248dade7ebf6d9f5715ce09bd8005a3f7bbfa3eae8e575c9abdbf749480f9806', 'Test browser', '2026-12-06 06:56:48.440567+00', NULL, NULL);
INSERT INTO public.device VALUES (1, 1, '04cb4c46204d79c0fad94b91de8d271d876596a0a494193e4ebab8839ffe9577', 'Test browser', '2026-12-06 06:56:48.431505+00', '2026-12-06 06:56:48.445425+00', NULL);
INSERT INTO public.device VALUES (2, 2, 'bc6916e398891c7845af134a96c9cff40103e9fd1856dd9eeed64f4390cfc28f', 'Test browser', '2026-12-06 06:56:48.437192+00', '2026-12-06 06:56:48.677515+00', NULL);


--
-- Data for Name: evening; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.evening VALUES (1, 1, '2026-12-06', NULL, NULL, '2026-12-06 06:56:48.451455+00', NULL, true);


--
-- Data for Name: game; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.game VALUES (1, 1, '3x2', 5, false, 1, false, '2026-12-06 06:56:48.453495+00', 3, '2026-12-06 06:56:48.667758+00', 1, NULL, 1);
INSERT INTO public.game VALUES (2, 1, '3x2', 21, false, 1, false, '2026-12-06 06:56:48.68165+00', 8, '2026-12-06 06:56:48.742519+00', 1, NULL, 1);
INSERT INTO public.game VALUES (3, 1, '3x2', 21, false, 1, false, '2026-12-06 06:56:48.756217+00', 2, '2026-12-06 06:56:48.773608+00', 1, NULL, 2);


--
-- Data for Name: game_change; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.game_change VALUES (1, 1, '2026-12-06 06:56:48.667758+00', 'recorded', 1, 1, 1, 'Owner (Test browser)', 'null', '{"A": 0, "B": 6, "C": 0}', '{"A": 0, "B": 0, "C": 0}', '{"A": 0, "B": 6, "C": 0}', 'null');
INSERT INTO public.game_change VALUES (2, 2, '2026-12-06 06:56:48.695925+00', 'recorded', 1, 2, 2, 'Scorer (Test browser)', 'null', '{"A": 2, "B": 2, "C": -4}', '{"A": 0, "B": 0, "C": 0}', '{"A": 2, "B": 2, "C": -4}', 'null');
INSERT INTO public.game_change VALUES (3, 2, '2026-12-06 06:56:48.705603+00', 'recorded', 2, 2, 2, 'Scorer (Test browser)', 'null', '{"A": -4, "B": 2, "C": 2}', '{"A": 2, "B": 2, "C": -4}', '{"A": -2, "B": 4, "C": -2}', 'null');
INSERT INTO public.game_change VALUES (4, 2, '2026-12-06 06:56:48.713893+00', 'recorded', 3, 2, 2, 'Scorer (Test browser)', 'null', '{"A": 2, "B": -4, "C": 2}', '{"A": -2, "B": 4, "C": -2}', '{"A": 0, "B": 0, "C": 0}', 'null');
INSERT INTO public.game_change VALUES (5, 2, '2026-12-06 06:56:48.72206+00', 'edited', 1, 2, 2, 'Scorer (Test browser)', '{"A": 2, "B": 2, "C": -4}', '{"A": 1, "B": 2, "C": -4}', '{"A": 0, "B": 0, "C": 0}', '{"A": -1, "B": 0, "C": 0}', '{"points": {"high": ["A", "C"]}}');
INSERT INTO public.game_change VALUES (6, 2, '2026-12-06 06:56:48.731769+00', 'seats', 0, 2, 2, 'Scorer (Test browser)', 'null', 'null', '{"A": -1, "B": 0, "C": 0}', '{"A": -1, "B": 0, "C": 0}', '{"seats": [2, 3], "players": ["Bob", "Cid"]}');
INSERT INTO public.game_change VALUES (7, 2, '2026-12-06 06:56:48.742519+00', 'undone', 3, 2, 2, 'Scorer (Test browser)', '{"A": 2, "B": -4, "C": 2}', 'null', '{"A": -1, "B": 0, "C": 0}', '{"A": -3, "B": 4, "C": -2}', 'null');
INSERT INTO public.game_change VALUES (8, 3, '2026-12-06 06:56:48.773608+00', 'recorded', 1, 1, 1, 'Owner (Test browser)', 'null', '{"A": 2, "B": 2, "C": -4}', '{"A": 0, "B": 0, "C": 0}', '{"A": 2, "B": 2, "C": -4}', 'null');


--
-- Data for Name: gameseat; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.gameseat VALUES (1, 1, 1, 1);
INSERT INTO public.gameseat VALUES (1, 2, 2, 1);
INSERT INTO public.gameseat VALUES (1, 3, 3, 1);
INSERT INTO public.gameseat VALUES (1, 4, 4, 1);
INSERT INTO public.gameseat VALUES (1, 5, 5, 1);
INSERT INTO public.gameseat VALUES (1, 6, 6, 1);
INSERT INTO public.gameseat VALUES (2, 1, 1, 1);
INSERT INTO public.gameseat VALUES (2, 4, 4, 1);
INSERT INTO public.gameseat VALUES (2, 5, 5, 1);
INSERT INTO public.gameseat VALUES (2, 6, 6, 1);
INSERT INTO public.gameseat VALUES (2, 3, 2, 1);
INSERT INTO public.gameseat VALUES (2, 2, 3, 1);
INSERT INTO public.gameseat VALUES (3, 1, 7, 1);
INSERT INTO public.gameseat VALUES (3, 2, 8, 1);
INSERT INTO public.gameseat VALUES (3, 3, 9, 1);
INSERT INTO public.gameseat VALUES (3, 4, 10, 1);
INSERT INTO public.gameseat VALUES (3, 5, 11, 1);
INSERT INTO public.gameseat VALUES (3, 6, 12, 1);


--
-- Data for Name: hand; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.hand VALUES (1, 1, 1, '[6]', 'hearts', '{"high": "B", "low": "B", "right": "B", "left": "B", "joker": "B", "game": "B"}', 'null', '2026-12-06 06:56:48.667758+00', NULL, NULL, NULL, false, NULL, NULL);
INSERT INTO public.hand VALUES (3, 2, 2, '["pass", 4, "pass", "pass", "pass", "pass"]', 'hearts', '{"high": "A", "low": "B", "right": "B", "left": "C", "joker": "C", "game": "A"}', 'null', '2026-12-06 06:56:48.705603+00', NULL, NULL, NULL, false, NULL, NULL);
INSERT INTO public.hand VALUES (2, 2, 1, '["pass", 4, "pass", "pass", "pass", "pass"]', 'hearts', '{"high": "C", "low": "B", "right": "B", "left": "C", "joker": "C", "game": "A"}', 'null', '2026-12-06 06:56:48.695925+00', '2026-12-06 06:56:48.72206+00', NULL, NULL, false, NULL, NULL);
INSERT INTO public.hand VALUES (4, 2, 3, '["pass", 4, "pass", "pass", "pass", "pass"]', 'hearts', '{"high": "A", "low": "B", "right": "B", "left": "C", "joker": "C", "game": "A"}', 'null', '2026-12-06 06:56:48.713893+00', NULL, '2026-12-06 06:56:48.742519+00', NULL, false, NULL, NULL);
INSERT INTO public.hand VALUES (5, 3, 1, '["pass", 4, "pass", "pass", "pass", "pass"]', 'hearts', '{"high": "A", "low": "B", "right": "B", "left": "C", "joker": "C", "game": "A"}', 'null', '2026-12-06 06:56:48.773608+00', NULL, NULL, NULL, true, NULL, NULL);


--
-- Data for Name: invite; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: join_attempt; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: kept_answer; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: live_draft; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: member; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.member VALUES (1, 1, 'Owner', 'owner', '2026-12-06 06:56:48.428397+00', NULL, NULL);
INSERT INTO public.member VALUES (2, 1, 'Scorer', 'scorer', '2026-12-06 06:56:48.436057+00', NULL, NULL);
INSERT INTO public.member VALUES (3, 1, 'Viewer', 'viewer', '2026-12-06 06:56:48.439612+00', NULL, NULL);


--
-- Data for Name: player; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.player VALUES (1, 1, 'Ann', 'ann', '2026-12-06 06:56:48.457343+00');
INSERT INTO public.player VALUES (2, 1, 'Bob', 'bob', '2026-12-06 06:56:48.461139+00');
INSERT INTO public.player VALUES (3, 1, 'Cid', 'cid', '2026-12-06 06:56:48.462885+00');
INSERT INTO public.player VALUES (4, 1, 'Dan', 'dan', '2026-12-06 06:56:48.464514+00');
INSERT INTO public.player VALUES (5, 1, 'Eve', 'eve', '2026-12-06 06:56:48.469084+00');
INSERT INTO public.player VALUES (6, 1, 'Fay', 'fay', '2026-12-06 06:56:48.471319+00');
INSERT INTO public.player VALUES (7, 1, 'Gus', 'gus', '2026-12-06 06:56:48.75769+00');
INSERT INTO public.player VALUES (8, 1, 'Hal', 'hal', '2026-12-06 06:56:48.759643+00');
INSERT INTO public.player VALUES (9, 1, 'Ida', 'ida', '2026-12-06 06:56:48.761196+00');
INSERT INTO public.player VALUES (10, 1, 'Joe', 'joe', '2026-12-06 06:56:48.762601+00');
INSERT INTO public.player VALUES (11, 1, 'Kim', 'kim', '2026-12-06 06:56:48.765056+00');
INSERT INTO public.player VALUES (12, 1, 'Lea', 'lea', '2026-12-06 06:56:48.766647+00');


--
-- Data for Name: player_pairs; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: player_rating; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: rated_game; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: season; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.season VALUES (1, 1, 'Spring', '2026-11-06', '2027-02-04', 'won', 1, 0, '2026-12-06 06:56:48.784795+00');


--
-- Data for Name: seat_summary; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Name: club_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.club_id_seq', 1, true);


--
-- Name: device_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.device_id_seq', 3, true);


--
-- Name: evening_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.evening_id_seq', 1, true);


--
-- Name: game_change_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.game_change_id_seq', 8, true);


--
-- Name: game_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.game_id_seq', 3, true);


--
-- Name: hand_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.hand_id_seq', 5, true);


--
-- Name: invite_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.invite_id_seq', 1, false);


--
-- Name: join_attempt_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.join_attempt_id_seq', 1, false);


--
-- Name: member_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.member_id_seq', 3, true);


--
-- Name: player_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.player_id_seq', 12, true);


--
-- Name: season_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.season_id_seq', 1, true);


--
-- Name: alembic_version alembic_version_pkc; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.alembic_version
    ADD CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num);


--
-- Name: attendance attendance_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.attendance
    ADD CONSTRAINT attendance_pkey PRIMARY KEY (evening_id, member_id);


--
-- Name: club club_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.club
    ADD CONSTRAINT club_pkey PRIMARY KEY (id);


--
-- Name: club_ratings club_ratings_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.club_ratings
    ADD CONSTRAINT club_ratings_pkey PRIMARY KEY (club_id);


--
-- Name: club_summary club_summary_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.club_summary
    ADD CONSTRAINT club_summary_pkey PRIMARY KEY (club_id);


--
-- Name: device device_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.device
    ADD CONSTRAINT device_pkey PRIMARY KEY (id);


--
-- Name: device device_token_hash_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.device
    ADD CONSTRAINT device_token_hash_key UNIQUE (token_hash);


--
-- Name: evening evening_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.evening
    ADD CONSTRAINT evening_pkey PRIMARY KEY (id);


--
-- Name: game_change game_change_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.game_change
    ADD CONSTRAINT game_change_pkey PRIMARY KEY (id);


--
-- Name: game game_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.game
    ADD CONSTRAINT game_pkey PRIMARY KEY (id);


--
-- Name: gameseat gameseat_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.gameseat
    ADD CONSTRAINT gameseat_pkey PRIMARY KEY (game_id, seat, from_hand);


--
-- Name: hand hand_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.hand
    ADD CONSTRAINT hand_pkey PRIMARY KEY (id);


--
-- Name: invite invite_code_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.invite
    ADD CONSTRAINT invite_code_key UNIQUE (code);


--
-- Name: invite invite_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.invite
    ADD CONSTRAINT invite_pkey PRIMARY KEY (id);


--
-- Name: invite invite_token_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.invite
    ADD CONSTRAINT invite_token_key UNIQUE (token);


--
-- Name: join_attempt join_attempt_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.join_attempt
    ADD CONSTRAINT join_attempt_pkey PRIMARY KEY (id);


--
-- Name: kept_answer kept_answer_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.kept_answer
    ADD CONSTRAINT kept_answer_pkey PRIMARY KEY (key);


--
-- Name: live_draft live_draft_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.live_draft
    ADD CONSTRAINT live_draft_pkey PRIMARY KEY (game_id);


--
-- Name: member member_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.member
    ADD CONSTRAINT member_pkey PRIMARY KEY (id);


--
-- Name: player_pairs player_pairs_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.player_pairs
    ADD CONSTRAINT player_pairs_pkey PRIMARY KEY (player_id);


--
-- Name: player player_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.player
    ADD CONSTRAINT player_pkey PRIMARY KEY (id);


--
-- Name: player_rating player_rating_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.player_rating
    ADD CONSTRAINT player_rating_pkey PRIMARY KEY (game_id, player_id);


--
-- Name: rated_game rated_game_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rated_game
    ADD CONSTRAINT rated_game_pkey PRIMARY KEY (game_id);


--
-- Name: season season_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.season
    ADD CONSTRAINT season_pkey PRIMARY KEY (id);


--
-- Name: seat_summary seat_summary_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.seat_summary
    ADD CONSTRAINT seat_summary_pkey PRIMARY KEY (game_id, seat, from_hand);


--
-- Name: player uq_player_club_name; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.player
    ADD CONSTRAINT uq_player_club_name UNIQUE (club_id, name_key);


--
-- Name: gameseat uq_seat_game_player; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.gameseat
    ADD CONSTRAINT uq_seat_game_player UNIQUE (game_id, player_id);


--
-- Name: ix_device_member_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_device_member_id ON public.device USING btree (member_id);


--
-- Name: ix_evening_club_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_evening_club_id ON public.evening USING btree (club_id);


--
-- Name: ix_evening_played_on; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_evening_played_on ON public.evening USING btree (played_on);


--
-- Name: ix_game_change_game_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_game_change_game_id ON public.game_change USING btree (game_id);


--
-- Name: ix_game_club_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_game_club_id ON public.game USING btree (club_id);


--
-- Name: ix_game_evening_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_game_evening_id ON public.game USING btree (evening_id);


--
-- Name: ix_game_stamp; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_game_stamp ON public.game USING btree (club_id, revision, abandoned_at);


--
-- Name: ix_gameseat_player_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_gameseat_player_id ON public.gameseat USING btree (player_id);


--
-- Name: ix_hand_game_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_hand_game_id ON public.hand USING btree (game_id);


--
-- Name: ix_invite_club_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_invite_club_id ON public.invite USING btree (club_id);


--
-- Name: ix_join_attempt_at; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_join_attempt_at ON public.join_attempt USING btree (at);


--
-- Name: ix_join_attempt_client; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_join_attempt_client ON public.join_attempt USING btree (client);


--
-- Name: ix_kept_answer_game_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_kept_answer_game_id ON public.kept_answer USING btree (game_id);


--
-- Name: ix_kept_answer_kept_at; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_kept_answer_kept_at ON public.kept_answer USING btree (kept_at);


--
-- Name: ix_member_club_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_member_club_id ON public.member USING btree (club_id);


--
-- Name: ix_player_club_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_player_club_id ON public.player USING btree (club_id);


--
-- Name: ix_player_rating_order; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_player_rating_order ON public.player_rating USING btree (player_id, games);


--
-- Name: ix_rated_game_order; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_rated_game_order ON public.rated_game USING btree (club_id, finished_at, game_id);


--
-- Name: ix_season_club_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_season_club_id ON public.season USING btree (club_id);


--
-- Name: ix_seat_summary_player_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_seat_summary_player_id ON public.seat_summary USING btree (player_id);


--
-- Name: uq_hand_game_entry; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX uq_hand_game_entry ON public.hand USING btree (game_id, entry_key);


--
-- Name: uq_hand_game_number_live; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX uq_hand_game_number_live ON public.hand USING btree (game_id, number) WHERE (undone_at IS NULL);


--
-- Name: attendance attendance_evening_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.attendance
    ADD CONSTRAINT attendance_evening_id_fkey FOREIGN KEY (evening_id) REFERENCES public.evening(id);


--
-- Name: attendance attendance_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.attendance
    ADD CONSTRAINT attendance_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id);


--
-- Name: club_ratings club_ratings_club_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.club_ratings
    ADD CONSTRAINT club_ratings_club_id_fkey FOREIGN KEY (club_id) REFERENCES public.club(id);


--
-- Name: club_summary club_summary_club_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.club_summary
    ADD CONSTRAINT club_summary_club_id_fkey FOREIGN KEY (club_id) REFERENCES public.club(id);


--
-- Name: device device_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.device
    ADD CONSTRAINT device_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id);


--
-- Name: evening evening_club_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.evening
    ADD CONSTRAINT evening_club_id_fkey FOREIGN KEY (club_id) REFERENCES public.club(id);


--
-- Name: game fk_game_evening_id; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.game
    ADD CONSTRAINT fk_game_evening_id FOREIGN KEY (evening_id) REFERENCES public.evening(id);


--
-- Name: live_draft fk_live_draft_device_id_device; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.live_draft
    ADD CONSTRAINT fk_live_draft_device_id_device FOREIGN KEY (device_id) REFERENCES public.device(id);


--
-- Name: game_change game_change_device_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.game_change
    ADD CONSTRAINT game_change_device_id_fkey FOREIGN KEY (device_id) REFERENCES public.device(id);


--
-- Name: game_change game_change_game_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.game_change
    ADD CONSTRAINT game_change_game_id_fkey FOREIGN KEY (game_id) REFERENCES public.game(id);


--
-- Name: game_change game_change_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.game_change
    ADD CONSTRAINT game_change_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.member(id);


--
-- Name: game game_club_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.game
    ADD CONSTRAINT game_club_id_fkey FOREIGN KEY (club_id) REFERENCES public.club(id);


--
-- Name: gameseat gameseat_game_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.gameseat
    ADD CONSTRAINT gameseat_game_id_fkey FOREIGN KEY (game_id) REFERENCES public.game(id);


--
-- Name: gameseat gameseat_player_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.gameseat
    ADD CONSTRAINT gameseat_player_id_fkey FOREIGN KEY (player_id) REFERENCES public.player(id);


--
-- Name: hand hand_game_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.hand
    ADD CONSTRAINT hand_game_id_fkey FOREIGN KEY (game_id) REFERENCES public.game(id);


--
-- Name: invite invite_club_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.invite
    ADD CONSTRAINT invite_club_id_fkey FOREIGN KEY (club_id) REFERENCES public.club(id);


--
-- Name: invite invite_created_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.invite
    ADD CONSTRAINT invite_created_by_fkey FOREIGN KEY (created_by) REFERENCES public.member(id);


--
-- Name: invite invite_game_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.invite
    ADD CONSTRAINT invite_game_id_fkey FOREIGN KEY (game_id) REFERENCES public.game(id);


--
-- Name: live_draft live_draft_game_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.live_draft
    ADD CONSTRAINT live_draft_game_id_fkey FOREIGN KEY (game_id) REFERENCES public.game(id);


--
-- Name: member member_club_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.member
    ADD CONSTRAINT member_club_id_fkey FOREIGN KEY (club_id) REFERENCES public.club(id);


--
-- Name: player player_club_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.player
    ADD CONSTRAINT player_club_id_fkey FOREIGN KEY (club_id) REFERENCES public.club(id);


--
-- Name: player_pairs player_pairs_player_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.player_pairs
    ADD CONSTRAINT player_pairs_player_id_fkey FOREIGN KEY (player_id) REFERENCES public.player(id);


--
-- Name: player_rating player_rating_game_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.player_rating
    ADD CONSTRAINT player_rating_game_id_fkey FOREIGN KEY (game_id) REFERENCES public.game(id);


--
-- Name: player_rating player_rating_player_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.player_rating
    ADD CONSTRAINT player_rating_player_id_fkey FOREIGN KEY (player_id) REFERENCES public.player(id);


--
-- Name: rated_game rated_game_club_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rated_game
    ADD CONSTRAINT rated_game_club_id_fkey FOREIGN KEY (club_id) REFERENCES public.club(id);


--
-- Name: rated_game rated_game_game_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rated_game
    ADD CONSTRAINT rated_game_game_id_fkey FOREIGN KEY (game_id) REFERENCES public.game(id);


--
-- Name: season season_club_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.season
    ADD CONSTRAINT season_club_id_fkey FOREIGN KEY (club_id) REFERENCES public.club(id);


--
-- Name: seat_summary seat_summary_game_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.seat_summary
    ADD CONSTRAINT seat_summary_game_id_fkey FOREIGN KEY (game_id) REFERENCES public.game(id);


--
-- Name: seat_summary seat_summary_player_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.seat_summary
    ADD CONSTRAINT seat_summary_player_id_fkey FOREIGN KEY (player_id) REFERENCES public.player(id);


--
-- PostgreSQL database dump complete
--


